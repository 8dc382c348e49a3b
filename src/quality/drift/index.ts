/**
 * Drift detection on judged scores (Page–Hinkley) and on input distributions (PSI, KS) per model
 * and component; `DriftRunner` reads through a `QueryClient` and writes through a `SeriesSink`.
 */
export { DRIFT_EVENT_METRIC, DRIFT_SCORE_METRIC, DriftRunner, type DriftParams, type DriftRunnerOptions, type TrackedDriftEvent } from './runner.js';
export { DEFAULT_PAGE_HINKLEY, PageHinkley, type DriftDirection, type PageHinkleyParams, type PageHinkleyStep } from './page-hinkley.js';
export { DEFAULT_SCORE_DRIFT, ScoreDriftDetector, type ScoreDriftOpened, type ScoreDriftParams, type ScoreDriftStep } from './score-detector.js';
export { DEFAULT_INPUT_DRIFT, InputDriftDetector, type InputDriftOpened, type InputDriftParams, type InputDriftStep, type InputTest } from './input-detector.js';
export { alignBins, binnedMean, binsFromBuckets, ksCritical, ksStatistic, psi, total, type Bins } from './distribution.js';
export { DEFAULT_INPUT_FEATURES, DEFAULT_INPUT_WINDOWS, FLAGS_METRIC, SCORE_EXPR, featureQueries, type InputFeature, type InputWindows } from './features.js';
