/**
 * The body a tool answered, refusals included: a tool that declares an output schema refuses in
 * text content only (a client validates any structuredContent against that schema), so the one
 * error shape is read back from the text (api/mcp/endpoint.ts).
 */
export function toolBody(answer: object): any {
  const result = answer as { structuredContent?: unknown; content?: unknown };
  if (result.structuredContent !== undefined) return result.structuredContent;
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.type === 'text' && first.text ? JSON.parse(first.text) : undefined;
}
