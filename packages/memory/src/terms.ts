/** Words too common to search for (English). */
const STOP = new Set(
  'a an and are as at be but by can could did do does for from had has have how i if in into is it its me my no not of on or our so that the their them then there these they this to was we were what when where which who why will with would you your yours'.split(
    ' ',
  ),
);

/** The lower-case words of `text` worth searching for (stop words and one-letter words dropped), each once. */
export function termsOf(text: string): string[] {
  const seen = new Set<string>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (word.length < 2 && !/\d/.test(word)) continue;
    if (!STOP.has(word)) seen.add(word);
  }
  return [...seen].slice(0, 32);
}
