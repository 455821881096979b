import { libraryShardTest } from '../support/libraryRound.ts';

// The first half of the library (every other skill by id); skillLibrarySecondHalf.test.ts runs the rest.
libraryShardTest(0, 2);
