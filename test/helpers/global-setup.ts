import { prepareTemplate, serverUrl } from './db.ts';

/** Runs once before the suite: migrate the template database on the real PostgreSQL, if any. */
export default async function setup() {
  const url = serverUrl();
  if (url) await prepareTemplate(url);
}
