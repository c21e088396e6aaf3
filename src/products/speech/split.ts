/**
 * Splits text into parts of at most `limit` characters for a provider with a request limit:
 * at sentence ends where it can, else at spaces, else anywhere. Joined back, the parts are the
 * text with the whitespace between parts collapsed to one space.
 */
export function splitForSpeech(text: string, limit: number): string[] {
  const parts: string[] = [];
  let current = '';
  for (const piece of sentences(text).flatMap((sentence) => fit(sentence, limit))) {
    const joined = current ? `${current} ${piece}` : piece;
    if (joined.length <= limit) current = joined;
    else {
      parts.push(current);
      current = piece;
    }
  }
  if (current) parts.push(current);
  return parts;
}

/** Sentences with their closing punctuation, whitespace between them dropped. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？…])\s+/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** A sentence longer than the limit, cut at spaces, and a word longer than it, cut anywhere. */
function fit(sentence: string, limit: number): string[] {
  if (sentence.length <= limit) return [sentence];
  const pieces: string[] = [];
  let current = '';
  for (const word of sentence.split(/\s+/)) {
    for (let i = 0; i < word.length; i += limit) {
      const chunk = word.slice(i, i + limit);
      const joined = current ? `${current} ${chunk}` : chunk;
      if (joined.length <= limit) current = joined;
      else {
        pieces.push(current);
        current = chunk;
      }
    }
  }
  if (current) pieces.push(current);
  return pieces;
}
