-- Task lists at 100,000 tasks and 1,000,000 progress entries (issue 20, bench/tasks.bench.ts; EXPLAIN ANALYZE on
-- PostgreSQL 16 with the bench's data).
--
-- 1. A status with the scope of a user of 20 sites ("to be reviewed" for a field engineer): the count (up to 10,000)
-- read 3,560 heap pages through a BitmapOr of the site and person indexes (263 ms cold). The status index carries the
-- columns of the scope, so the count and the page's filter are read from the index alone (14 ms, no heap).
create index tasks_status_end_scope_idx on tasks (status, end_time, id)
  include (platform_id, assignee_id, reviewer_id, publisher_id);
drop index tasks_status_end_idx;

-- 2. Daily history of one site: its 500 tasks' 5,000 entries were sorted by day from their rows (5,000 random heap
-- reads, 1.4 s cold). With (task_id, day, id) the page is chosen from the index alone and only its 20 rows are read
-- (listProgress in tasks.repository.ts; 4 ms). It also serves a task's own history (task_id = ?, by day).
create index task_progress_task_day_idx on task_progress (task_id, day desc, id desc);
drop index task_progress_task_idx;

-- 3. Keyword search: the filter is `search_text like '%word%'`, which no b-tree serves. Without an index the list's
-- count read 50,000 rows for a common word (103 ms) and a rare word read every task for its page (the end-time index
-- filtered row by row). A trigram GIN index (pg_trgm) answers both from the index: 23 ms for a word in 20,000 tasks,
-- 1.5 ms for a rare one.
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
