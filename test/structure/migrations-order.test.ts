/**
 * Migrations apply in the order MIGRATIONS lists them: that order must be their numeric order,
 * or a later migration (an index on a column) runs before the one it needs (the column).
 */
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../api/db/migrations/index.ts';

describe('the migration list', () => {
  it('is in numeric order, each name once', () => {
    const names = MIGRATIONS.map((migration) => migration.name);
    expect(names).toEqual([...new Set(names)].sort());
  });
});
