import { randomBytes, randomInt } from 'node:crypto';

// The few `@faker-js/faker` generators the vendored suite calls, with random values of the same
// shape, so the suite runs without that devDependency.

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const alphanumeric = (length: number) => Array.from({ length }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');

export const faker = {
  internet: {
    email: () => `${alphanumeric(10).toLowerCase()}.${Date.now()}@example.test`,
    password: () => `${alphanumeric(12)}-${randomBytes(3).toString('hex')}`,
    domainName: () => `${alphanumeric(8).toLowerCase()}.example`,
  },
  image: {
    avatarGitHub: () => `https://avatars.githubusercontent.com/u/${randomInt(1, 1e8)}`,
    url: () => `https://picsum.photos/seed/${alphanumeric(6)}/640/480`,
  },
  string: { alphanumeric },
};
