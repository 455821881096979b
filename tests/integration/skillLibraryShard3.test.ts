import { libraryShardTest } from '../support/libraryRound.ts';

// A third of the library (every third skill by id, from the 3rd): skillLibrary.test.ts and skillLibraryShard2/3.test.ts run it all.
libraryShardTest(2, 3);
