import { Migration } from '@mikro-orm/migrations';

/**
 * Reply threads kept as replies arrive: /api/spines walked every reply
 * thread of the history recursively on each request. A thread is the tree of not-held imprints
 * under a root (an imprint with no reply_to, or whose parent is held); it is kept once it has a
 * reply:
 * - `thread_nodes` (sequence, root, depth): each not-held imprint of a kept thread, its root and
 *   its depth (the root is 1);
 * - `threads` (root, size, depth): how many imprints the thread holds and its deepest depth, ranked
 *   by an index, so the longest threads are the index's first rows.
 * A reply's place is its parent's plus one: one key lookup per reply, in the writer's statement.
 * A hold released by a steward joins the imprint to its parent's thread and moves the threads
 * rooted at its replies under it (a row trigger, only when `held` changed). An imprint is never
 * held after it was written (the gate holds at insert; migration 0032), so nothing leaves a thread.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0063ReplyThreads extends Migration {
  override name = 'Migration0063ReplyThreads';

  override up(): void {
    this.addSql(`create table thread_nodes (
      sequence bigint primary key, root bigint not null, depth integer not null)`);
    this.addSql('create index thread_nodes_depth on thread_nodes (root, depth)');
    this.addSql(`create table threads (
      root bigint primary key, size bigint not null, depth integer not null)`);
    this.addSql('create index threads_rank on threads (depth desc, size desc, root)');

    // What is stored already: the walk /api/spines made, once, from the roots that have a reply.
    this.addSql(`insert into thread_nodes (sequence, root, depth)
      with recursive walk as (
        select i.sequence as root, i.sequence, 1 as depth from imprints i
         where not i.held
           and (i.reply_to is null or not exists (select 1 from imprints p where p.sequence = i.reply_to and not p.held))
           and exists (select 1 from imprints c where c.reply_to = i.sequence and not c.held)
        union all
        select w.root, c.sequence, w.depth + 1 from walk w
          join imprints c on c.reply_to = w.sequence and not c.held and c.sequence > w.sequence)
      select sequence, root, depth from walk`);
    this.addSql(`insert into threads (root, size, depth)
      select root, count(*), max(depth) from thread_nodes group by root`);

    // Places one not-held reply under its parent (the parent becomes a root when it had no thread).
    this.addSql(`create function thread_place(reply bigint, parent bigint) returns void language plpgsql as $$
      declare r bigint; d integer;
      begin
        select root, depth into r, d from thread_nodes where sequence = parent;
        if not found then
          if not exists (select 1 from imprints where sequence = parent and not held) then return; end if;
          insert into thread_nodes (sequence, root, depth) values (parent, parent, 1);
          insert into threads (root, size, depth) values (parent, 1, 1);
          r := parent;
          d := 1;
        end if;
        insert into thread_nodes (sequence, root, depth) values (reply, r, d + 1) on conflict (sequence) do nothing;
        if found then update threads set size = size + 1, depth = greatest(depth, d + 1) where root = r; end if;
      end $$`);
    this.addSql(`create function kept_threads() returns trigger language plpgsql as $$
      declare rec record;
      begin
        for rec in select sequence, reply_to from new_rows where reply_to is not null and not held order by sequence loop
          perform thread_place(rec.sequence, rec.reply_to);
        end loop;
        return null;
      end $$`);
    this.addSql(
      'create trigger imprints_kept_threads after insert on imprints referencing new table as new_rows for each statement execute function kept_threads()',
    );

    // A released hold: the imprint takes its place, and each thread rooted at one of its replies
    // (or a lone reply) moves under it, deeper by the imprint's own depth.
    this.addSql(`create function kept_threads_release() returns trigger language plpgsql as $$
      declare r bigint; d integer; child record; moved_size bigint; moved_depth integer;
      begin
        if new.held then return null; end if;
        if new.reply_to is not null then perform thread_place(new.sequence, new.reply_to); end if;
        for child in select sequence from imprints where reply_to = new.sequence and not held order by sequence loop
          select root, depth into r, d from thread_nodes where sequence = new.sequence;
          if not found then
            insert into thread_nodes (sequence, root, depth) values (new.sequence, new.sequence, 1);
            insert into threads (root, size, depth) values (new.sequence, 1, 1);
            r := new.sequence;
            d := 1;
          end if;
          select size, depth into moved_size, moved_depth from threads where root = child.sequence;
          if found then
            update thread_nodes set root = r, depth = depth + d where root = child.sequence;
            delete from threads where root = child.sequence;
          else
            insert into thread_nodes (sequence, root, depth) values (child.sequence, r, d + 1);
            moved_size := 1;
            moved_depth := 1;
          end if;
          update threads set size = size + moved_size, depth = greatest(depth, d + moved_depth) where root = r;
        end loop;
        return null;
      end $$`);
    this.addSql(
      'create trigger imprints_kept_threads_release after update of held on imprints for each row when (old.held is distinct from new.held) execute function kept_threads_release()',
    );
  }
}
