/**
 * The service's public origin for copy-paste examples (curl lines, URLs to share): CIVITAS_ORIGIN,
 * else the build's public URL, else the origin this page was requested at — never a relative URL.
 */
export function publicOrigin(astro: { site?: URL; url: URL; locals?: App.Locals }): string {
  // The API process hands its configured origin to pages (api/app.ts): never the request's Host.
  const configured = astro.locals?.origin ?? process.env.CIVITAS_ORIGIN ?? astro.site?.origin;
  return (configured ?? astro.url.origin).replace(/\/$/, '');
}
