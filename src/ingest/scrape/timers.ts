/** The timer port (src/model/timers.ts), shared with every module that waits. */
export { systemTimers, type Timers } from '../../model/index.js';
