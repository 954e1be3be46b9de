import dayjs from 'dayjs';

/** A timestamp as local date and time, or '-' when missing. */
export function formatTime(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '-';
}
