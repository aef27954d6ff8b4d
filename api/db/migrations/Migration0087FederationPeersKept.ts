import { Migration } from '@mikro-orm/migrations';

/**
 * Federation peers without a scan (issue 20): /api/federation counted every row of
 * `federation_relays` per peer (`count(*)`, `max(received_at)`) on each request.
 * `federation_peer_relays` keeps, per peer with at least one relay, how many it relayed and when the
 * newest arrived. A statement-level trigger with transition tables moves it in the writer's own
 * transaction, one peer at a time (in peer order, so concurrent writers lock alike): the count by
 * the rows the statement added and removed; the newest time by the greatest added one, unless a
 * removed row was at least as new as the kept time, and then by that peer's newest remaining relay
 * (one backward probe of `federation_relays_peer (peer, received_at)`). An update that changes
 * neither peer nor time moves nothing; a peer left with no relay is deleted, a truncate drops them all.
 * SQL that PostgreSQL 15 and PGlite both run; one statement per addSql.
 */
const COLUMNS = 'id, peer, received_at';

/** Per peer: the relays the statement added minus those it removed, and the newest of each. */
function moved(added: string | null, removed: string | null): string {
  const parts = [
    added && `select peer, 1 as n, received_at as added, null::timestamptz as removed from (${added}) a`,
    removed && `select peer, -1 as n, null::timestamptz as added, received_at as removed from (${removed}) r`,
  ].filter(Boolean);
  return `select peer, sum(n)::bigint as n, max(added) as added, max(removed) as removed
    from (${parts.join(' union all ')}) x group by peer order by peer`;
}

const NEWEST = `(select r.received_at from federation_relays r where r.peer = m.peer
    order by r.received_at desc limit 1)`;

/** Moves each peer's kept row by `rows` (the output of `moved`). */
const move = (rows: string) => `for m in ${rows} loop
          delete from federation_peer_relays where peer = m.peer and relays + m.n <= 0;
          if not found then
            update federation_peer_relays c set relays = c.relays + m.n,
              last_received_at = case when m.removed is null or c.last_received_at > m.removed
                then greatest(c.last_received_at, m.added) else ${NEWEST} end
             where c.peer = m.peer;
            if not found and m.n > 0 then
              insert into federation_peer_relays as c (peer, relays, last_received_at)
                values (m.peer, m.n, m.added)
                on conflict (peer) do update set relays = c.relays + excluded.relays,
                  last_received_at = greatest(c.last_received_at, excluded.last_received_at);
            end if;
          end if;
        end loop;`;

export class Migration0087FederationPeersKept extends Migration {
  override name = 'Migration0087FederationPeersKept';

  override up(): void {
    this.addSql(`create table federation_peer_relays (
      peer text primary key,
      relays bigint not null,
      last_received_at timestamptz not null
    )`);
    this.addSql(`insert into federation_peer_relays (peer, relays, last_received_at)
      select peer, count(*), max(received_at) from federation_relays group by peer order by peer`);
    const added = `select ${COLUMNS} from new_rows except select ${COLUMNS} from old_rows`;
    const removed = `select ${COLUMNS} from old_rows except select ${COLUMNS} from new_rows`;
    this.addSql(`create function federation_peers_kept() returns trigger language plpgsql as $$
      declare
        m record;
      begin
        if tg_op = 'INSERT' then ${move(moved('select peer, received_at from new_rows', null))}
        elsif tg_op = 'UPDATE' then ${move(moved(added, removed))}
        elsif tg_op = 'DELETE' then ${move(moved(null, 'select peer, received_at from old_rows'))}
        else delete from federation_peer_relays;
        end if;
        return null;
      end $$`);
    for (const [event, referencing] of [
      ['insert', 'referencing new table as new_rows'],
      ['update', 'referencing old table as old_rows new table as new_rows'],
      ['delete', 'referencing old table as old_rows'],
      ['truncate', ''],
    ]) {
      this.addSql(
        `create trigger federation_relays_peers_${event} after ${event} on federation_relays ${referencing} for each statement execute function federation_peers_kept()`,
      );
    }
  }
}
