/**
 * Password rules (current practice, NIST SP 800-63B): at least 8 characters, at most 256,
 * any characters including spaces and non-Latin scripts, and not a commonly used password.
 * The spec's "3 to 5 characters" message is a wording slip of the original and is not a rule.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

const COMMON = `password 12345678 123456789 1234567890 qwertyuiop qwerty123 password1 password123 iloveyou
11111111 00000000 abc12345 abcd1234 1qaz2wsx qazwsxedc 1q2w3e4r 1q2w3e4r5t zaq12wsx sunshine princess
football baseball welcome1 welcome123 admin123 admin1234 administrator letmein1 passw0rd p@ssw0rd
p@ssword monkey123 dragon123 master123 trustno1 superman batman123 whatever 88888888 66666666
12341234 11223344 123123123 987654321 qwer1234 asdf1234 asdfghjkl zxcvbnm1 computer internet
geosentry geosentry1 changeme changeme1 default1 password! 123qweasd qweasdzxc a1234567 aa123456
woaini1314 5201314520 abc123456 1234qwer 1234abcd iloveyou1 starwars shadow12 michael1 jennifer
hello123 freedom1 whatever1 qwertyui 87654321 12344321 147258369 159357456 123456abc 654321abc`;

const COMMON_SET = new Set(COMMON.split(/\s+/).filter(Boolean));

export type PasswordProblem = 'tooShort' | 'tooLong' | 'common' | 'sameAsAccount';

export function checkPassword(password: string, account?: string): PasswordProblem | null {
  const chars = [...password].length;
  if (chars < PASSWORD_MIN) return 'tooShort';
  if (chars > PASSWORD_MAX) return 'tooLong';
  const lower = password.toLowerCase();
  if (COMMON_SET.has(lower)) return 'common';
  if (/^(.)\1+$/.test(password)) return 'common';
  if (account && lower === account.trim().toLowerCase()) return 'sameAsAccount';
  return null;
}
