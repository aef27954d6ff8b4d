/**
 * Prints the personal-data declarations table (family → table → personal data → on erasure → why)
 * as Markdown, for docs/identity.md: `npx node scripts/personal-data-table.ts`.
 */
import { PERSONAL_DATA } from '../api/personal-data.ts';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function personalDataTable(): string {
  const lines = [
    '| Family | Table | Personal data | Export | Erasure | Why |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const family of PERSONAL_DATA) {
    for (const table of family.tables) {
      const columns = Object.keys(table.personal);
      if (!columns.length) continue;
      const kept = new Set(table.keptWords ?? []);
      const data = columns.map((c) => `\`${c}\`${kept.has(c) ? ' (kept)' : ''}`).join(', ');
      lines.push(
        `| ${family.family} | \`${table.table}\` | ${cell(data)} | ${table.notExported ? `no: ${cell(table.notExported)}` : 'yes'} | ${table.disposition} | ${cell(table.why)} |`,
      );
    }
  }
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('personal-data-table.ts')) console.log(personalDataTable());
