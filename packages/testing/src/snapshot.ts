/**
 * `reset()` in one statement: a copy of every table of the seeded database in a schema of its own, a
 * trigger per table that notes which tables a statement changed, and a function that puts back only
 * those tables (and every sequence), so a reset costs what the test changed, not the whole database.
 */
import type { PGlite } from "@electric-sql/pglite";

/** The schema that holds the copies and the functions; nothing of the API's lives there. */
const SCHEMA = "cloudplane_testing";
/** The session setting that lists the tables changed since the last reset, comma-separated. */
const CHANGED = `${SCHEMA}.changed`;

/** The tables and sequences of the API's schema. */
const OBJECTS_OF_PUBLIC = `
  select c.relname as name, c.relkind as kind
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind in ('r', 'p', 'S')
  order by c.relname`;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Installs the copies, the triggers and the functions in the seeded database; the copies are what
 * `reset` puts back. Run once, when the image is made.
 */
export async function installSnapshot(client: PGlite): Promise<void> {
  const { rows } = await client.query<{ name: string; kind: string }>(OBJECTS_OF_PUBLIC);
  const tables = rows.filter((row) => row.kind !== "S").map((row) => row.name);
  const statements = [
    `create schema ${SCHEMA}`,
    `create table ${SCHEMA}.sequences (name regclass primary key, last_value bigint not null, is_called boolean not null)`,
    // Statement-level, so a statement that changes many rows notes its table once. The list lives in a
    // session setting, not a table: noting a change writes nothing, and a rolled-back change un-notes itself.
    `create function ${SCHEMA}.note_change() returns trigger language plpgsql as $$
      declare
        changed text := coalesce(current_setting('${CHANGED}', true), '');
      begin
        if position(',' || tg_table_name || ',' in ',' || changed || ',') = 0 then
          perform set_config('${CHANGED}', case when changed = '' then tg_table_name else changed || ',' || tg_table_name end, false);
        end if;
        return null;
      end $$`,
    // The seeded state, again: the tables changed since the last one, and every sequence.
    `create function ${SCHEMA}.take_snapshot(all_tables boolean) returns void language plpgsql as $$
      declare
        item record;
      begin
        for item in select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relkind in ('r', 'p')
              and (all_tables or c.relname = any(string_to_array(nullif(current_setting('${CHANGED}', true), ''), ','))) loop
          execute format('drop table if exists ${SCHEMA}.%I', item.name);
          execute format('create table ${SCHEMA}.%I as table public.%I', item.name, item.name);
        end loop;
        delete from ${SCHEMA}.sequences;
        for item in select c.oid::regclass as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relkind = 'S' loop
          execute format('insert into ${SCHEMA}.sequences select %L::regclass, last_value, is_called from %s', item.name, item.name);
        end loop;
        perform set_config('${CHANGED}', '', false);
      end $$`,
    // Foreign keys are not checked while the tables are put back (replica mode skips their triggers, and
    // ours): each table comes back as it was, so together they are as consistent as they were.
    `create function ${SCHEMA}.reset() returns void language plpgsql as $$
      declare
        changed_table text;
      begin
        set local session_replication_role = replica;
        foreach changed_table in array coalesce(string_to_array(nullif(current_setting('${CHANGED}', true), ''), ','), '{}') loop
          execute format('delete from public.%I', changed_table);
          execute format('insert into public.%I overriding system value select * from ${SCHEMA}.%I', changed_table, changed_table);
        end loop;
        perform setval(saved.name, saved.last_value, saved.is_called) from ${SCHEMA}.sequences saved;
        perform set_config('${CHANGED}', '', false);
      end $$`,
    ...tables.map(
      (table) =>
        `create trigger cloudplane_testing_note_change after insert or update or delete or truncate on public.${quote(table)} ` +
        `for each statement execute function ${SCHEMA}.note_change()`,
    ),
    `select ${SCHEMA}.take_snapshot(true)`,
  ];
  await client.exec(statements.join(";\n"));
}

/** Makes the database as it is now the state `reset` returns to (after a platform's own seeding). */
export async function takeSnapshot(client: PGlite): Promise<void> {
  await client.query(`select ${SCHEMA}.take_snapshot(false)`);
}

/** Puts back the tables changed since the snapshot, and every sequence. */
export async function resetToSnapshot(client: PGlite): Promise<void> {
  await client.query(`select ${SCHEMA}.reset()`);
}
