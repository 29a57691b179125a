// forge agent against the corpus of reply shapes (test/helpers/agent-corpus.ts), each turn sent as the case writes it.
import { corpusCases, corpusCheck } from '../helpers/agent-corpus';
import { test } from '../helpers/harness';

corpusCheck();
corpusCases('as written');

test.run();
