-- Report jobs and scheduled reports (issue 17, scope 7 and 8).

-- A report made by the platform's job runner (job kind 'report'): what it makes, beside its job row. A queued or
-- running job of the same owner and key (kind, format, parameters, language) is answered instead of a second.
create table report_jobs (
  job_id bigint primary key references jobs(id) on delete cascade,
  owner_id integer not null references users(id) on delete cascade,
  kind text not null check (kind in ('moduleData', 'vibration', 'reservoir', 'general')),
  format text not null check (format in ('xlsx', 'pdf')),
  platform_id integer not null,
  file_name text,
  dedupe_key text not null,
  created_at timestamptz not null default now()
);
create index report_jobs_owner_idx on report_jobs (owner_id, job_id desc);
create index report_jobs_key_idx on report_jobs (owner_id, dedupe_key);

-- A report mailed on a schedule to a contact group: daily, weekly (ISO weekday) or monthly (day of month) at a
-- local time of its zone, covering a period relative to its due time. next_due_at is computed by the server.
create table report_schedules (
  id serial primary key,
  owner_id integer not null references users(id) on delete cascade,
  name text not null,
  kind text not null check (kind in ('moduleData', 'vibration', 'reservoir', 'general')),
  params jsonb not null,
  platform_id integer not null references platforms(id) on delete cascade,
  formats text[] not null,
  frequency text not null check (frequency in ('daily', 'weekly', 'monthly')),
  weekday integer check (weekday between 1 and 7),
  month_day integer check (month_day between 1 and 31),
  local_time text not null,
  time_zone text not null,
  period text not null check (period in ('yesterday', 'last7Days', 'lastWeek', 'lastMonth')),
  group_id integer not null references alert_groups(id) on delete cascade,
  enabled boolean not null default true,
  next_due_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index report_schedules_owner_idx on report_schedules (owner_id, id desc);
create index report_schedules_due_idx on report_schedules (next_due_at) where enabled;

-- One run per (schedule, due time): the ticker inserts it with ON CONFLICT DO NOTHING, so two server nodes or a
-- hundred concurrent ticks start it once. Its job renders and queues the mails; a failure keeps its reason.
create table report_schedule_runs (
  id bigint generated always as identity primary key,
  schedule_id integer not null references report_schedules(id) on delete cascade,
  due_at timestamptz not null,
  state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed')),
  reason text,
  reason_params jsonb,
  job_id bigint,
  mails integer not null default 0,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  constraint report_schedule_runs_once unique (schedule_id, due_at)
);

-- The notification outbox carries mails of scheduled reports too: such a row names its run instead of an alert,
-- and its attachments (files of the job store: [{fileId, ext, name, contentType}]). One mail per run, channel
-- and recipient.
alter table notification_outbox alter column alert_id drop not null;
alter table notification_outbox alter column level drop not null;
alter table notification_outbox add column report_run_id bigint references report_schedule_runs(id) on delete set null;
alter table notification_outbox add column attachments jsonb;
create unique index notification_outbox_report_dedupe on notification_outbox (report_run_id, channel, recipient)
  where report_run_id is not null;
create index notification_outbox_report_run_idx on notification_outbox (report_run_id) where report_run_id is not null;
