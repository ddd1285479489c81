/* Compiled separately: to the differentiated code, an external function. */
void fill_label(char *buf, int n) {
  const char *s = "alpha";
  int i = 0;
  for (; i + 1 < n && s[i]; i++)
    buf[i] = s[i];
  buf[i] = 0;
}
