// Constants of the threeD feature (issue 21 item 6, spec §2 /dimensional).

/** Spec §2: /dimensional (3D view) is hidden for these platform types; their sites have no 3D scene either. */
export const THREE_D_HIDDEN_TYPES = ['bridge', 'sideslope'] as const;

/** The default size limit of a model file (THREE_D_MAX_MODEL_MB sets it on the server). */
export const THREE_D_DEFAULT_MAX_MODEL_MB = 200;

/** Most devices one save may place (a site's devices). */
export const THREE_D_MAX_PLACEMENTS = 5000;

/** How far from the model's origin a device may be placed, m (beyond: a typing slip). */
export const THREE_D_MAX_COORD = 1_000_000;

/** Points of a device's recent chart: the last hours of readings. */
export const THREE_D_RECENT_HOURS = 24;
