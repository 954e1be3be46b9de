// The rectification of an inspection's problems (spec §4 "Tailings rectification: completed or incomplete"),
// one model for every kind of inspection: tailings supervision records (feature tsManagement) and the dynamic
// supervision of any site (feature archives). A record with a problem says what must be rectified and by when;
// it is incomplete until marked completed with its completion date; an incomplete one past its deadline is
// overdue (by the server's date).

/** Spec §4: a rectification is completed or incomplete. */
export const RECTIFICATION_STATES = ['completed', 'incomplete'] as const;
export type RectificationState = (typeof RECTIFICATION_STATES)[number];

/** Incomplete with its deadline before today (dates as yyyy-MM-dd). */
export const isOverdue = (state: RectificationState, deadline: string | null, today: string): boolean =>
  state === 'incomplete' && deadline !== null && deadline < today;
