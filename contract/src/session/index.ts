export * from './schemas.ts';
export * from './routes.ts';
export * from './signature.ts';
export * from './password.ts';
