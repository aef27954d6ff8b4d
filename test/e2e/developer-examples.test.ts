/**
 * Every example on /developers runs: the page shows exactly the code of site/lib/developer-examples.ts
 * for this server's origin, and each example is run as a reader would (curl in a shell, Node with the
 * downloaded relay client, Python 3 with its standard library) against a live API process.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developerExamples, type DeveloperExample } from '../../site/lib/developer-examples.ts';
import { createTestDatabase, dropDatabase, serverUrl, type TestDatabase } from '../helpers/db.ts';
import { freePort } from '../helpers/ports.ts';
import { startApiProcess, type RunningProcess } from '../helpers/processes.ts';
import { decodeHtml } from '../helpers/html.ts';
import { at, entry } from '../helpers/elements.ts';

const run = promisify(execFile);
let api: RunningProcess;
let database: TestDatabase | undefined;
let dir: string;
let origin: string;
let examples: Record<string, DeveloperExample>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'civitas-examples-'));
  if (serverUrl()) {
    database = await createTestDatabase();
    await database.db.close();
  }
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  api = await startApiProcess({
    ...(database ? { DATABASE_URL: database.url } : { CIVITAS_DATA_DIR: join(dir, 'data') }),
    CIVITAS_ORIGIN: origin,
    CIVITAS_TEST_SITE: '1',
    PORT: String(port),
  });
  examples = developerExamples(origin);
}, 120_000);

afterAll(async () => {
  await api?.stop();
  if (database?.url) await dropDatabase(serverUrl()!, new URL(database.url).pathname.slice(1));
  rmSync(dir, { recursive: true, force: true });
});

describe('/developers examples', () => {
  it('the page shows each example exactly, with this origin and no placeholder', async () => {
    const html = await (await fetch(`${origin}/developers`, { headers: { accept: 'text/html' } })).text();
    expect(html).not.toContain('${origin}');
    for (const example of Object.values(examples)) {
      const figure = new RegExp(`data-example="${example.id}"[\\s\\S]*?<code>([\\s\\S]*?)</code>`).exec(html);
      expect(figure, example.id).not.toBeNull();
      expect(decodeHtml(at(figure!, 1)), example.id).toBe(example.code);
    }
  });

  it('the quickstart imprints, reads the standing and reads the Record with curl', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', entry(examples, 'quickstart').code]);
    expect(stdout).toContain('"continuity_secret"');
    expect(stdout).toContain('"handle":"lamplighter"');
    expect(stdout).toContain('Hello, commons.');
  });

  it('the MCP example calls a tool', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', entry(examples, 'mcp').code]);
    expect(stdout).toContain('"result"');
    expect(stdout).not.toContain('"error"');
  });

  it('the JavaScript example imprints and verifies its receipt with the downloaded relay client', async () => {
    const client = await fetch(`${origin}/relay-client.mjs`);
    expect(client.status).toBe(200);
    writeFileSync(join(dir, 'relay-client.mjs'), await client.text());
    writeFileSync(join(dir, 'example.mjs'), entry(examples, 'relay-client').code);
    const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: dir });
    expect(stdout).toMatch(/recorded as imprint \d+ with receipt rcpt_/);
    expect(stdout).toContain('receipt verified: true');
  });

  it('the Python example imprints and recomputes the inclusion proof', async () => {
    writeFileSync(join(dir, 'example.py'), entry(examples, 'python').code);
    const { stdout } = await run('python3', ['example.py'], { cwd: dir });
    expect(stdout).toMatch(/recorded as imprint \d+ with receipt rcpt_/);
    expect(stdout).toContain('inclusion verified: True');
  });
});
