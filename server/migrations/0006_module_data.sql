-- Data processing audit: every reading changed or removed by smoothing, deletion or a GNSS edit keeps its
-- previous values here (new_vals is null for a deletion). Depends on 0005 (readings).
create table reading_edits (
  id bigserial primary key,
  device_id integer not null,
  ts timestamptz not null,
  action text not null check (action in ('smooth', 'delete', 'edit')),
  old_vals jsonb not null,
  new_vals jsonb,
  user_id integer,
  edited_at timestamptz not null default now()
);
create index reading_edits_device_idx on reading_edits (device_id, ts);
