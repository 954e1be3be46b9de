-- Tailings supervision (TS) records (spec §2 TSManagement, §3 Tailings "supervision record", §4 rectification
-- completed or incomplete): one inspection of a tailings site, what each inspected item showed, the problem
-- type, the rectification content and its deadline, the documents, the responsible person (a responsible
-- person, kept by id) and the regulatory person, and the completion status, time, result and result documents.
-- The affiliated enterprise, pond name and pond status are the site's (platforms.enterprise_id, name,
-- details->>'status') and are read from it. Documents and result documents are file ids (files table), at
-- most 3 each. Removed with the site. Depends on 0002 (platforms), 0001 (users) and the responsible persons.
create table ts_records (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  inspection_date date not null,
  inspector text not null,
  problem_type text check (problem_type in ('damSafety', 'seepage', 'drainage', 'floodDischarge',
    'monitoringFacilities', 'dryBeach', 'management', 'other')),
  items jsonb not null default '{}'::jsonb,
  dry_beach_length double precision check (dry_beach_length >= 0),
  findings text,
  requirement text,
  deadline date,
  attachments jsonb not null default '[]'::jsonb,
  responsible_person_id integer references responsible_persons(id) on delete set null,
  regulatory_person text,
  state text not null default 'incomplete' check (state in ('completed', 'incomplete')),
  completed_date date,
  result text,
  result_attachments jsonb not null default '[]'::jsonb,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (state = 'incomplete' or completed_date is not null),
  check (deadline is null or deadline >= inspection_date),
  check (completed_date is null or completed_date >= inspection_date)
);
create index ts_records_site_date_idx on ts_records(platform_id, inspection_date desc);
create index ts_records_state_deadline_idx on ts_records(state, deadline);
create index ts_records_person_idx on ts_records(responsible_person_id);
