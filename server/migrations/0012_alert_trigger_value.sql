-- The value that raised an alert's current level (the computed value compared with the limit at the raise or
-- the last escalation) and that reading's time, kept apart from the latest value (last_value / metric): a red
-- alert shown with its latest reading under the limit looked like a false alarm.
alter table alerts add column trigger_value double precision;
alter table alerts add column trigger_at timestamptz;
-- The evidence is replaced at each escalation, so it holds the hit that gave the current level.
update alerts
   set trigger_value = coalesce((evidence ->> 'metric')::double precision, (evidence ->> 'value')::double precision),
       trigger_at = coalesce((evidence ->> 'ts')::timestamptz, escalated_at, first_at)
 where kind <> 'offline';
