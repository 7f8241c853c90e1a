/** Tailwind CSS v4 through PostCSS (the shadcn/ui setup for Next.js). */
export default { plugins: { "@tailwindcss/postcss": {} } };
