/** The conformance suite of the `QueryClient` contract, run by every implementation's tests. */
export { runQueryClientSuite, type QueryClientQuirks, type QueryClientUnderTest } from './query-client-suite.js';
export { SUITE_INTERVAL_MS, SUITE_ODD_VALUE, SUITE_T0_MS, queryClientSuiteData, type QueryClientSuiteData, type SuiteSeries } from './dataset.js';
