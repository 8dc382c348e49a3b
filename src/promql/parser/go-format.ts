/** The Go formatting verbs the parser's messages and printer use live in src/model (the rules' templates print the same way). */
export { formatFloatF, formatFloatFixed6, formatFloatG, goQuote, goQuoteRune, goRound, goRuneHash } from '../../model/index.js';
