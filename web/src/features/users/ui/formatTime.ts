/** Time formatting lives in shared/time.ts (the user's zone); kept here for the screens that import it. */
export { formatTime } from '../../../shared/time.ts';
