// Every test file starts with one known key of the event timelines' level hash (resources/events/timeline.ts):
// the server draws its own from the OS, which decides only how many records a descent reads, so
// counts of reads in tests would otherwise move from run to run. Key 0 is the hash the counts in
// the tests were first measured with.
import { setLevelKey } from '../src/resources/events/timeline.js';

setLevelKey(0);
