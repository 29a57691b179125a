// forge agent against the corpus of reply shapes (test/helpers/agent-corpus.ts), each turn in the other transport form: streamed as one body, one body as a stream.
import { corpusCases } from '../helpers/agent-corpus';
import { test } from '../helpers/harness';

corpusCases('flipped');

test.run();
