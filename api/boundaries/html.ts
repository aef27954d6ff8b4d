/**
 * The census for people when this process serves the API alone (split deploy, or the site not
 * built): a plain, accessible HTML rendering of exactly the body GET /api/boundaries returns.
 * With the site mounted, site/pages/boundaries.astro renders the same projection instead.
 */
import type { CensusBody } from '../../shared/boundaries/census.ts';

const escape = (value: unknown): string =>
  String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export function censusHtml(census: CensusBody): string {
  const p = census.address_pressure;
  const c = census.coverage;
  const rows = census.boundaries
    .map(
      (row) =>
        `<tr><th scope="row">${escape(row.label)}<br><code>${escape(row.key)}</code></th><td>${escape(row.status)}</td><td><code>${escape(row.authority)}</code></td><td>${escape(row.guards)}</td><td>${escape(row.closes)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Boundaries · civitas</title>
<meta name="description" content="The 23 privacy boundaries of civitas, re-proved live on this request."></head>
<body>
<main>
<h1>The 23 privacy boundaries</h1>
<p role="status"><strong>${census.active} of ${census.total_boundaries} active</strong>; ${census.unbound_count} unbound; all bound: ${census.all_bound ? 'yes' : 'no'}; fully accounted: ${census.fully_accounted ? 'yes' : 'no'}.</p>
<p>${escape(census.identity_boundary)}</p>
<table>
<caption>Each boundary, re-proved on this request</caption>
<thead><tr><th scope="col">Boundary</th><th scope="col">Status</th><th scope="col">Authority</th><th scope="col">Guards</th><th scope="col">Closes</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<h2>Address pressure</h2>
<p>${p.available ? `${p.inhabitants} sovereigns on ${p.distinct_addresses} of ${p.address_space} tags; ${p.colliding_addresses} colliding tags, ${p.unaddressable} unaddressable sovereigns; saturation ${p.saturation}.` : 'The population could not be read just now.'}</p>
<h2>Coverage</h2>
<p>Inventory ${escape(c.status)}: ${c.exports_inventoried} exports of ${c.exhaustive_modules} boundary modules; ${escape(c.unreached_scope.statement)}</p>
<p>${escape(census.principle)}</p>
<p>${escape(census.wiring_proof)}</p>
<p>Machine-readable: <a href="/api/boundaries">/api/boundaries</a></p>
</main>
</body>
</html>`;
}
