-- Background jobs (report jobs, data import) and the marks of imported data. Depends on 0001 (users),
-- 0002 (river_water_levels), 0005 (readings).

-- A job: claimed by one runner at a time (FOR UPDATE SKIP LOCKED, as the notification outbox), kept alive by
-- its runner's heartbeat (locked_until); a job whose lease expired (its runner died) is claimed again and
-- resumes from its checkpoint, which its handler commits together with the work it describes.
create table jobs (
  id bigint generated always as identity primary key,
  kind text not null,
  owner_id integer not null references users(id) on delete cascade,
  params jsonb not null default '{}'::jsonb,
  state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed', 'cancelled')),
  phase text,
  done bigint not null default 0,
  total bigint,
  -- Where the handler resumes (its own shape), written in the transaction of the work it counts.
  checkpoint jsonb,
  -- A message key of the server's catalogue (translated when read) and its parameters.
  error text,
  error_params jsonb,
  result jsonb,
  result_file text,
  attempts integer not null default 0,
  cancel_requested boolean not null default false,
  runner text,
  locked_until timestamptz,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  heartbeat_at timestamptz,
  finished_at timestamptz,
  -- When the finished job and its files are purged (JOB_RESULT_DAYS after it finished).
  expires_at timestamptz
);
create index jobs_due_idx on jobs (id) where state in ('queued', 'running');
create index jobs_owner_idx on jobs (owner_id, id desc);
create index jobs_expires_idx on jobs (expires_at) where expires_at is not null;

-- Files of jobs: uploads waiting for their import, and results. Bytes in DATA_DIR/jobs/<id>.<ext>.
create table job_files (
  id text primary key,
  owner_id integer not null references users(id) on delete cascade,
  name text not null,
  ext text not null,
  size bigint not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index job_files_owner_idx on job_files (owner_id);
create index job_files_expires_idx on job_files (expires_at);

-- Imported readings carry the id of their import job (live readings: null). Their received_at is the reading's
-- own time (never later than now), so the alert catch-up after a restart, which judges what was received
-- lately, does not judge history.
alter table readings add column import_id bigint;
alter table river_water_levels add column import_id bigint;
