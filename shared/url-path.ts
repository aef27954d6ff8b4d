/**
 * The path of a request URL or a same-origin link: everything before its query string
 * (`/receipt/rcpt_1?format=json` → `/receipt/rcpt_1`). A string, always: a URL without a query is
 * its own path.
 */
export function withoutQuery(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
