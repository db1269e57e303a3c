// A C header a test includes inside `extern "C" {}`.
int c_api_version(void);
