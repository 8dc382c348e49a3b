/**
 * Go's `text/template` with Prometheus 2.42's template functions, written by hand (no maintained
 * npm package reproduces Go's templates exactly): `createTemplateExpander` renders alert labels
 * and annotations, `checkTemplate` validates them as promtool does.
 */
export { ALERT_TEMPLATE_DEFS, TEMPLATE_FUNCTION_NAMES, checkTemplate, createTemplateExpander, type TemplateExpanderOptions, type TemplateLimits } from './expander.js';
