/**
 * Splits an option string into words as a POSIX shell would (blanks separate words; single quotes
 * keep everything; double quotes keep everything but `\"`, `\\`, `\$` and `` \` ``; a backslash
 * outside quotes keeps the next character), without running a shell. What a shell would do more
 * than split (`;`, `|`, `&`, `<`, `>`, `(`, `)`, `$`, `` ` ``, `*`, `?`, `[`, `~`, `#`) is refused
 * unless quoted, so the words never mean something other than what they say.
 */

const OPERATORS = new Set([';', '|', '&', '<', '>', '(', ')', '$', '`', '*', '?', '[', '~', '#']);
const BLANK = /[ \t\n]/;

/** The words of `text` as a shell would split them; throws RangeError (naming `flag`) on an unclosed quote or an unquoted shell operator. */
export function splitShellWords(text: string, flag: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (BLANK.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new RangeError(`${flag} ${text}: a single quote is not closed`);
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`\n'.includes(text[j + 1]!)) {
          if (text[j + 1] !== '\n') word += text[j + 1];
          j++;
        } else if (text[j] === '$' || text[j] === '`') {
          throw new RangeError(`${flag} ${text}: "${text[j]!}" inside double quotes would be expanded by a shell; options are passed to sbatch without one (use single quotes)`);
        } else word += text[j];
      }
      if (j >= text.length) throw new RangeError(`${flag} ${text}: a double quote is not closed`);
      inWord = true;
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new RangeError(`${flag} ${text}: ends with a backslash`);
      if (text[i + 1] !== '\n') {
        word += text[i + 1];
        inWord = true;
      }
      i++;
    } else if (OPERATORS.has(c) && !(c === '#' && inWord) && !(c === '~' && inWord)) {
      throw new RangeError(`${flag} ${text}: "${c}" would mean something to a shell; options are passed to sbatch without one (quote it to pass it on)`);
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
