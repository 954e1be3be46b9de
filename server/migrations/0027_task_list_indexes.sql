-- Keyword search of tasks (issue 20, bench/tasks.bench.ts): the filter is `search_text like '%word%'`, which no
-- b-tree serves. Without an index the list's count (up to 10,000) read 50,000 rows for a common word (103 ms on
-- 100,000 tasks) and a rare word read every task for its page (the end-time index filtered row by row). A trigram
-- GIN index (pg_trgm) answers both from the index: 23 ms for a word in 20,000 tasks, 1.5 ms for a rare one
-- (EXPLAIN ANALYZE on PostgreSQL 16, 100,000 tasks).
--
-- Engines differ here: PostgreSQL ships pg_trgm with its contrib modules (a trusted extension: the database owner
-- may create it); embedded PGlite offers it only when loaded at start, which the server does not, so there the
-- block does nothing and the filter scans (PGlite holds small installations). Where the extension is available
-- but may not be created (no privilege), the search stays correct, only slower: a notice, not a failed start.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_trgm') then
    begin
      create extension if not exists pg_trgm;
      create index if not exists tasks_search_trgm_idx on tasks using gin (search_text gin_trgm_ops);
    exception when insufficient_privilege then
      raise notice 'pg_trgm not created (%): the task keyword filter runs without its index', sqlerrm;
    end;
  end if;
end $$;
