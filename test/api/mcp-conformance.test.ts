/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, its own CLI and client)
 * runs its server scenarios against /mcp on a loopback port. The service's configured origin is
 * that loopback origin, as for a local install, so dns-rebinding-protection sees a localhost server.
 * docs/mcp.md lists the scenarios that do not apply to a tools-only stateless server, and why.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/ports.ts';

const CLI = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);

/** Every server scenario that applies to a stateless, tools-only server answering JSON. */
export const APPLICABLE_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO';
  errorMessage?: string;
}

let t: TestApp;
let url: string;
let outDir: string;
beforeAll(async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  t = await createTestApp({ config: { origin } });
  await t.app.listen({ port, host: '127.0.0.1' });
  url = `${origin}/mcp`;
  outDir = mkdtempSync(join(tmpdir(), 'civitas-conformance-'));
});
afterAll(async () => {
  await t?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

/** Runs one scenario through the suite's own CLI; resolves with its exit code and checks. */
function runScenario(scenario: string): Promise<{ code: number; checks: Check[]; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'server', '--url', url, '--scenario', scenario, '--output-dir', outDir, '--verbose'],
      { cwd: outDir, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const json = stdout.slice(stdout.indexOf('['), stdout.lastIndexOf(']') + 1);
        let checks: Check[] = [];
        try {
          checks = JSON.parse(json) as Check[];
        } catch {
          // the exit code and the output below still tell what happened
        }
        resolve({ code, checks, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

describe('the official MCP conformance suite against /mcp', () => {
  for (const scenario of APPLICABLE_SCENARIOS) {
    it(`passes ${scenario}`, async () => {
      const { code, checks, output } = await runScenario(scenario);
      expect(checks.length, output).toBeGreaterThan(0);
      const failed = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
      expect(failed, output).toEqual([]);
      expect(code, output).toBe(0);
    }, 90_000);
  }
});
