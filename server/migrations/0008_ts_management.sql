-- Tailings supervision (TS) records (spec §2 TSManagement, §3 Tailings "supervision record", §4 rectification
-- completed or incomplete): one inspection of a tailings site, what each inspected item showed, the findings,
-- the rectification required and by when, and whether it was done. Attachments are file ids (files table),
-- at most 3. Removed with the site. Depends on 0002 (platforms) and 0001 (users).
create table ts_records (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  inspection_date date not null,
  inspector text not null,
  responsible_person text,
  items jsonb not null default '{}'::jsonb,
  dry_beach_length double precision check (dry_beach_length >= 0),
  findings text,
  requirement text,
  deadline date,
  state text not null default 'incomplete' check (state in ('completed', 'incomplete')),
  completed_date date,
  completion_note text,
  attachments jsonb not null default '[]'::jsonb,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (state = 'incomplete' or completed_date is not null),
  check (deadline is null or deadline >= inspection_date),
  check (completed_date is null or completed_date >= inspection_date)
);
create index ts_records_site_date_idx on ts_records(platform_id, inspection_date desc);
create index ts_records_state_deadline_idx on ts_records(state, deadline);
