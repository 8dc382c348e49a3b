/** Stage 2 of the quality evaluation: an LLM judge at an OpenAI-compatible endpoint, with rubrics as data. */
export { JUDGE_FAILURES, JudgeError, type JudgeFailure } from './errors.js';
export { createOpenAIJudge, type OpenAIJudgeOptions } from './openai-judge.js';
export { JUDGE_HEADER, judgeMessages, MAX_JUDGED_CHARS } from './prompt.js';
export { DEFAULT_RUBRICS, parseRubricsFile } from './rubrics.js';
export { MAX_REASONING_CHARS, parseVerdict } from './verdict.js';
