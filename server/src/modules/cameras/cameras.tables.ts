import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';

/**
 * Kysely's view of the camera tables (server/migrations/0023_cameras.sql, 0030_camera_recordings.sql). Keep in
 * step with the SQL.
 */
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type IntArray = ColumnType<number[], number[] | undefined, number[]>;

export type CameraTables = {
  camera_groups: {
    id: Generated<number>;
    parent_id: number | null;
    name: string;
    level: number;
    path: IntArray;
    sort: Generated<number>;
    created_at: Stamp;
    updated_at: Stamp;
  };
  cameras: {
    id: Generated<number>;
    group_id: number;
    platform_id: number;
    name: string;
    serial_number: string;
    channel: number;
    type: string;
    vendor: string;
    vm_code: string | null;
    vm_user: string | null;
    vm_password_enc: string | null;
    ip: string;
    rtsp_url: string | null;
    sub_rtsp_url: string | null;
    onvif_url: string | null;
    ptz: Generated<boolean>;
    lon: number | null;
    lat: number | null;
    address: string | null;
    principal: string | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  camera_role_config: {
    role_id: number;
    restricted: boolean;
    group_ids: IntArray;
    camera_ids: IntArray;
    updated_at: Stamp;
  };
  camera_tasks: {
    id: Generated<number>;
    name: string;
    kind: Generated<string>;
    /** Seconds recorded by a recording task (5 to 300); null for a snapshot task. */
    duration_sec: number | null;
    camera_ids: number[];
    times: string[];
    retention_days: number;
    enabled: Generated<boolean>;
    last_run_at: Date | null;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  camera_snapshots: {
    id: Generated<number>;
    camera_id: number;
    platform_id: number;
    source: string;
    task_id: number | null;
    alert_id: number | null;
    size: number;
    /** 'jpeg' (a picture) or 'mp4' (a clip). */
    media: Generated<string>;
    /** A clip's length; null for a picture. */
    duration_ms: number | null;
    taken_at: Stamp;
    expires_at: Date | string | null;
  };
};

export type CamDb = Kysely<Database & CameraTables>;
/** The app database with the camera tables. */
export const cam = (db: Db): CamDb => db.k.withTables<CameraTables>();
