import { libraryShardTest } from '../support/libraryRound.ts';

// The second half of the library (every other skill by id); skillLibrary.test.ts runs the first.
libraryShardTest(1, 2);
