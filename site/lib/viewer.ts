/**
 * Whether the visitor may use a door that needs a signed-in Sovereign. The one-origin server tells
 * pages who is signed in (`locals.viewer`); the split deploy knows no viewer (no `locals.civitas`),
 * so there its doors render enabled and the API's refusal answers.
 */
export function maySignedInAct(locals: App.Locals): boolean {
  return locals.viewer !== undefined || !locals.civitas;
}
