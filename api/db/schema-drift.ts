import {
  DatabaseSchema,
  SchemaComparator,
  type AbstractSqlConnection,
  type AbstractSqlPlatform,
  type SqlSchemaGenerator,
} from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/core';

/** Tables the migrator owns itself; no entity describes them. */
const UNDESCRIBED = new Set(['civitas_migrations']);

/**
 * How the entities differ from the database they are opened on, in MikroORM's own comparator:
 * missing or extra tables, and per table added, removed or changed columns (type, nullability,
 * default, identity) and a different primary key. Foreign keys, unique constraints, checks and
 * secondary indexes are not described by the entities (the migrations own them), so their
 * differences are left out. An empty list means no drift.
 */
export async function schemaDrift(orm: MikroORM): Promise<string[]> {
  const em = orm.em.fork();
  const platform = em.getPlatform() as AbstractSqlPlatform;
  const connection = em.getConnection() as AbstractSqlConnection;
  const target = (orm.schema as unknown as SqlSchemaGenerator).getTargetSchema();
  const actual = await DatabaseSchema.create(
    connection,
    platform,
    orm.config,
    undefined,
    target.getNamespaces(),
  );
  actual.prune(undefined, []);
  target.prune(undefined, []);
  const diff = new SchemaComparator(platform).compare(actual, target);
  const drift: string[] = [];
  for (const name of Object.keys(diff.newTables)) drift.push(`${name}: an entity with no table`);
  for (const table of Object.values(diff.removedTables)) {
    if (!UNDESCRIBED.has(table.name)) drift.push(`${table.name}: a table with no entity`);
  }
  for (const [name, table] of Object.entries(diff.changedTables)) {
    for (const column of Object.keys(table.addedColumns))
      drift.push(`${name}.${column}: in the entity, not in the table`);
    for (const column of Object.keys(table.removedColumns))
      drift.push(`${name}.${column}: in the table, not in the entity`);
    for (const column of Object.keys(table.renamedColumns)) drift.push(`${name}.${column}: renamed`);
    for (const [column, change] of Object.entries(table.changedColumns)) {
      drift.push(`${name}.${column}: ${[...change.changedProperties].join(', ')} differ`);
    }
    const keys = [
      ...Object.values(table.addedIndexes),
      ...Object.values(table.removedIndexes),
      ...Object.values(table.changedIndexes),
    ];
    if (keys.some((index) => index.primary)) drift.push(`${name}: primary key differs`);
  }
  return drift;
}
