-- Field tasks (issue 20, scope 1 to 3; spec §3 Task, §4, §5): a task of a site, published by one user to a
-- responsible person (assignee) and checked by a reviewer; its daily progress entries; its reviews. The status
-- changes only by conditional updates (where status = the expected one), so concurrent calls end in one state.
-- Depends on 0001 (users, platforms), 0003 (devices), 0010 (the outbox).
create table tasks (
  id serial primary key,
  name text not null check (length(name) between 1 and 100),
  type text check (type in ('inspection', 'maintenance', 'rectification', 'alertHandling', 'survey', 'other')),
  project text not null,
  area text,
  construction_point text not null,
  platform_id integer not null references platforms(id) on delete cascade,
  device_id integer references devices(id) on delete set null,
  -- The alert the task was made from (no foreign key: the task outlives the alert, like the outbox).
  alert_id integer,
  evidence jsonb,
  priority text not null check (priority in ('importantUrgent', 'importantNotUrgent', 'commonUrgent', 'commonNotUrgent')),
  -- The priority's rank (1 most pressing): lists sort by it through an index.
  priority_rank smallint generated always as (case priority when 'importantUrgent' then 1
    when 'importantNotUrgent' then 2 when 'commonUrgent' then 3 else 4 end) stored,
  status text not null default 'notStarted' check (status in ('notStarted', 'ongoing', 'toBeReviewed', 'completed')),
  -- The last completion rate reported (0 before the first report; reports are 1..100).
  completion_rate smallint not null default 0 check (completion_rate between 0 and 100),
  assignee_id integer not null references users(id),
  publisher_id integer not null references users(id),
  reviewer_id integer not null references users(id),
  documents jsonb not null default '[]'::jsonb,
  plan_hours double precision check (plan_hours >= 0),
  start_time timestamptz not null,
  end_time timestamptz not null,
  description text not null,
  acceptance text,
  grade text check (grade in ('normal', 'good', 'excellent')),
  review_result text check (review_result in ('pass', 'fail')),
  review_note text,
  started_at timestamptz,
  submitted_at timestamptz,
  completed_at timestamptz,
  -- When the reminder before the end time was queued: set once (exactly-once reminders).
  reminded_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- What the keyword filter searches: name, project, construction point and area, lower-cased, in one column.
  search_text text generated always as (lower(name || ' ' || project || ' ' || construction_point || ' '
    || coalesce(area, ''))) stored,
  check (end_time > start_time),
  check (reviewer_id <> assignee_id),
  check (status <> 'completed' or (completed_at is not null and grade is not null))
);
-- Lists (measured by bench/tasks.bench.ts, 100,000 tasks): each filter with the orders the screens ask, so a page
-- is read from an index; the period filter is a range of end_time.
create index tasks_end_idx on tasks (end_time, id);
create index tasks_platform_end_idx on tasks (platform_id, end_time, id);
create index tasks_platform_created_idx on tasks (platform_id, created_at, id);
create index tasks_status_end_idx on tasks (status, end_time, id);
create index tasks_priority_idx on tasks (priority_rank, end_time, id);
create index tasks_status_priority_idx on tasks (status, priority_rank, end_time, id);
create index tasks_priority_end_idx on tasks (priority, end_time, id);
create index tasks_created_idx on tasks (created_at, id);
create index tasks_assignee_idx on tasks (assignee_id, end_time, id);
create index tasks_reviewer_idx on tasks (reviewer_id, end_time, id);
create index tasks_publisher_idx on tasks (publisher_id, end_time, id);
create index tasks_alert_idx on tasks (alert_id) where alert_id is not null;
create index tasks_reminder_idx on tasks (end_time) where reminded_at is null and status in ('notStarted', 'ongoing');

-- A day's progress report of the assignee (daily history): text, completion rate, photos (file ids), position.
create table task_progress (
  id bigserial primary key,
  task_id integer not null references tasks(id) on delete cascade,
  user_id integer references users(id) on delete set null,
  user_name text not null,
  day date not null,
  text text not null,
  completion_rate smallint not null check (completion_rate between 1 and 100),
  photos jsonb not null default '[]'::jsonb,
  lat double precision check (lat between -90 and 90),
  lon double precision check (lon between -180 and 180),
  created_at timestamptz not null default now()
);
create index task_progress_task_idx on task_progress (task_id, id desc);
create index task_progress_day_idx on task_progress (day desc, id desc);
create index task_progress_user_idx on task_progress (user_id, created_at desc);

-- Every review (a failed one sends the task back to ongoing; its note stays here).
create table task_reviews (
  id serial primary key,
  task_id integer not null references tasks(id) on delete cascade,
  reviewer_id integer references users(id) on delete set null,
  reviewer_name text not null,
  result text not null check (result in ('pass', 'fail')),
  grade text check (grade in ('normal', 'good', 'excellent')),
  note text,
  created_at timestamptz not null default now()
);
create index task_reviews_task_idx on task_reviews (task_id, id);

-- The language a user last used on a task screen: his notifications are written in it.
create table task_user_languages (
  user_id integer primary key references users(id) on delete cascade,
  language text not null check (language in ('en', 'zh', 'ko'))
);

-- Task messages go through the alerts' outbox (same sender, retries, delivery record): a row of a task has no
-- alert; (task_id, task_event, channel, recipient) is its idempotency key.
alter table notification_outbox alter column alert_id drop not null;
alter table notification_outbox alter column level drop not null;
alter table notification_outbox add column task_id integer;
alter table notification_outbox add column task_event text;
create unique index notification_outbox_task_dedupe on notification_outbox (task_id, task_event, channel, recipient)
  where task_id is not null;
