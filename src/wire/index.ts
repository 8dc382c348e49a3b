/** Public surface of `src/wire`: codecs only. */
export { TEXT_CONTENT_TYPE, formatFloat, formatTextExposition, type MetricFamily, type MetricType } from './text-format.js';
export { ExpositionParseError, formatFromContentType, parseExposition, type ExpositionFormat, type FamilyType, type ParsedExemplar, type ParsedFamily, type ParsedSample } from './text-parse.js';
