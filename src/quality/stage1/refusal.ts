/**
 * Refusals: an answer that declines instead of answering. A phrase list per language, matched
 * (case-folded, typographic apostrophes folded) within the answer's first `REFUSAL_SCAN_CHARS`
 * characters, where a model says it will not help; a refusal buried deep in a long answer is
 * usually a caveat, not a refusal.
 */
import { foldCase } from './text.js';

/** How much of the answer's start is searched. */
export const REFUSAL_SCAN_CHARS = 400;

/** Refusal phrases by language (lower case, `'` for every apostrophe). */
export const REFUSAL_PHRASES: Readonly<Record<string, readonly string[]>> = {
  en: [
    "i can't help with",
    'i cannot help with',
    "i can't assist with",
    'i cannot assist with',
    "i'm sorry, but i can't",
    "i'm sorry, but i cannot",
    'i am sorry, but i cannot',
    "i'm unable to help",
    'i am unable to help',
    "i'm not able to help",
    "i won't be able to help",
    "i can't provide",
    'i cannot provide',
    "i can't comply",
    'i cannot comply',
    'i must decline',
    "i'm not able to provide",
    'as an ai language model, i cannot',
    "as an ai, i can't",
    'i cannot fulfill',
    "i can't fulfill",
  ],
  de: ['ich kann ihnen dabei nicht helfen', 'ich kann dabei nicht helfen', 'das kann ich nicht', 'leider kann ich', 'ich kann keine', 'es tut mir leid, aber ich kann'],
  fr: ["je ne peux pas vous aider", "je ne peux pas t'aider", 'je ne peux pas répondre', 'désolé, mais je ne peux pas', 'je suis désolé, mais je ne peux', 'je ne suis pas en mesure de'],
  es: ['no puedo ayudarte con', 'no puedo ayudar con', 'lo siento, pero no puedo', 'no puedo proporcionar', 'no estoy en condiciones de'],
  it: ['non posso aiutarti', 'mi dispiace, ma non posso', 'non sono in grado di', 'non posso fornire'],
  pt: ['não posso ajudar com', 'desculpe, mas não posso', 'não posso fornecer', 'não consigo ajudar'],
  nl: ['ik kan je daar niet mee helpen', 'ik kan daar niet bij helpen', 'het spijt me, maar ik kan'],
  ru: ['я не могу помочь', 'извините, но я не могу', 'к сожалению, я не могу', 'я не могу предоставить'],
  zh: ['我不能帮助', '我无法帮助', '抱歉，我不能', '抱歉，我无法', '我不能提供', '我无法提供'],
  ja: ['お手伝いできません', '申し訳ありませんが', 'お答えできません', '提供できません'],
  ko: ['도와드릴 수 없습니다', '죄송하지만', '제공할 수 없습니다'],
};

const ALL: readonly (readonly [string, string])[] = Object.entries(REFUSAL_PHRASES).flatMap(([lang, list]) => list.map((p) => [lang, p] as const));

/** The first refusal phrase found near the answer's start, with its language, or null. */
export function findRefusal(response: string): { readonly lang: string; readonly phrase: string } | null {
  const head = foldCase(response.slice(0, REFUSAL_SCAN_CHARS));
  for (const [lang, phrase] of ALL) if (head.includes(phrase)) return { lang, phrase };
  return null;
}
