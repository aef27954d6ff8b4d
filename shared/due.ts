/** One thing coming due for the signed-in person (the "due" calendar and feed); families contribute items. */
export interface DueItem {
  id: string;
  title: string;
  due_at: string;
  href: string;
  detail: string;
}
