// support/output_file.h: how each kind of path is written (the method chosen,
// what stays of the old file) and that nothing is left behind.
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "support/output_file.h"

namespace dd::output {
namespace {

class OutputFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    const char *tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/output-file-XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    for (const std::string &name : names())
      ::unlink((dir_ + "/" + name).c_str());
    ::rmdir(dir_.c_str());
  }

  std::string path(const std::string &name) const { return dir_ + "/" + name; }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    if (DIR *d = ::opendir(dir_.c_str())) {
      while (dirent *e = ::readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
          out.push_back(e->d_name);
      ::closedir(d);
    }
    return out;
  }

  static std::string read(const std::string &path) {
    std::string out;
    const int fd = ::open(path.c_str(), O_RDONLY);
    char buffer[256];
    for (ssize_t got; fd >= 0 && (got = ::read(fd, buffer, sizeof buffer)) > 0;)
      out.append(buffer, static_cast<std::size_t>(got));
    if (fd >= 0)
      ::close(fd);
    return out;
  }

  static void write(const std::string &path, const std::string &text) {
    std::string error;
    ASSERT_TRUE(write_file(path, text, error)) << error;
  }

  static struct stat status(const std::string &path) {
    struct stat st {};
    EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
    return st;
  }

  std::string dir_;
};

TEST_F(OutputFileTest, NewFileIsRenamedIntoPlace) {
  OutputFile out;
  ASSERT_TRUE(out.open(path("new.txt"))) << out.error();
  EXPECT_EQ(out.method(), Method::kReplace);
  out.write("hello\n");
  // Until commit() only the temporary file exists.
  ASSERT_EQ(names().size(), 1u);
  EXPECT_EQ(names()[0].rfind(".new.txt.tmp-", 0), 0u) << names()[0];
  ASSERT_TRUE(out.commit()) << out.error();
  EXPECT_EQ(read(path("new.txt")), "hello\n");
  EXPECT_EQ(names(), std::vector<std::string>{"new.txt"});
}

TEST_F(OutputFileTest, ExistingFileIsReplacedWithItsMode) {
  write(path("f.txt"), "old contents\n");
  ASSERT_EQ(::chmod(path("f.txt").c_str(), 0640), 0);
  const ino_t old_inode = status(path("f.txt")).st_ino;
  OutputFile out;
  ASSERT_TRUE(out.open(path("f.txt")));
  EXPECT_EQ(out.method(), Method::kReplace);
  out.write("new\n");
  ASSERT_TRUE(out.commit()) << out.error();
  EXPECT_EQ(read(path("f.txt")), "new\n");
  EXPECT_EQ(status(path("f.txt")).st_mode & 07777, 0640u);
  EXPECT_NE(status(path("f.txt")).st_ino, old_inode);
}

TEST_F(OutputFileTest, HardLinkedFileIsRewrittenInPlace) {
  write(path("a.txt"), "a longer old text\n");
  ASSERT_EQ(::link(path("a.txt").c_str(), path("b.txt").c_str()), 0);
  const ino_t inode = status(path("a.txt")).st_ino;
  OutputFile out;
  ASSERT_TRUE(out.open(path("a.txt")));
  EXPECT_EQ(out.method(), Method::kInPlace);
  out.write("short\n");
  ASSERT_TRUE(out.commit()) << out.error();
  // The same inode, truncated to the new length, seen through both links.
  EXPECT_EQ(status(path("a.txt")).st_ino, inode);
  EXPECT_EQ(status(path("a.txt")).st_nlink, 2u);
  EXPECT_EQ(read(path("b.txt")), "short\n");
}

TEST_F(OutputFileTest, SymbolicLinkStaysAndItsTargetIsWritten) {
  write(path("target.txt"), "old\n");
  ASSERT_EQ(::symlink("target.txt", path("link.txt").c_str()), 0);
  write(path("link.txt"), "new\n");
  EXPECT_TRUE(S_ISLNK(status(path("link.txt")).st_mode));
  EXPECT_EQ(read(path("target.txt")), "new\n");
}

TEST_F(OutputFileTest, FifoIsWrittenThrough) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  // A reader must exist before a writer can open a FIFO.
  const int reader = ::open(path("fifo").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  OutputFile out;
  ASSERT_TRUE(out.open(path("fifo"))) << out.error();
  EXPECT_EQ(out.method(), Method::kThrough);
  out.write("through\n");
  ASSERT_TRUE(out.commit()) << out.error();
  char buffer[16] = {};
  EXPECT_EQ(::read(reader, buffer, sizeof buffer), 8);
  EXPECT_EQ(std::string(buffer), "through\n");
  ::close(reader);
  EXPECT_TRUE(S_ISFIFO(status(path("fifo")).st_mode));
  EXPECT_EQ(names(), std::vector<std::string>{"fifo"});
}

TEST_F(OutputFileTest, DescriptorPathsWriteToTheDescriptor) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  OutputFile out;
  ASSERT_TRUE(out.open("/dev/fd/" + std::to_string(fds[1]))) << out.error();
  EXPECT_EQ(out.method(), Method::kDescriptor);
  out.write("to the pipe\n");
  ASSERT_TRUE(out.commit()) << out.error();
  ::close(fds[1]);
  char buffer[32] = {};
  EXPECT_EQ(::read(fds[0], buffer, sizeof buffer), 12);
  EXPECT_EQ(std::string(buffer), "to the pipe\n");
  ::close(fds[0]);
}

TEST_F(OutputFileTest, LongNameGetsAShortTemporaryName) {
  const std::string name(250, 'n');
  OutputFile out;
  ASSERT_TRUE(out.open(path(name))) << out.error();
  ASSERT_EQ(names().size(), 1u);
  EXPECT_EQ(names()[0].rfind(".dd-tmp-", 0), 0u) << names()[0];
  out.write("x");
  ASSERT_TRUE(out.commit()) << out.error();
  EXPECT_EQ(read(path(name)), "x");
}

TEST_F(OutputFileTest, UncommittedOutputLeavesNothing) {
  write(path("kept.txt"), "kept\n");
  {
    OutputFile out;
    ASSERT_TRUE(out.open(path("kept.txt")));
    out.write("never committed\n");
  }
  EXPECT_EQ(read(path("kept.txt")), "kept\n");
  EXPECT_EQ(names(), std::vector<std::string>{"kept.txt"});
}

TEST_F(OutputFileTest, DirectoryIsAnError) {
  ASSERT_EQ(::mkdir(path("d").c_str(), 0700), 0);
  OutputFile out;
  EXPECT_FALSE(out.open(path("d")));
  EXPECT_EQ(out.error(), "is a directory");
  ::rmdir(path("d").c_str());
}

TEST_F(OutputFileTest, SameFileFollowsLinks) {
  write(path("g.txt"), "g\n");
  ASSERT_EQ(::symlink("g.txt", path("soft").c_str()), 0);
  ASSERT_EQ(::link(path("g.txt").c_str(), path("hard").c_str()), 0);
  write(path("other.txt"), "g\n");
  EXPECT_TRUE(same_file(path("g.txt"), path("soft")));
  EXPECT_TRUE(same_file(path("hard"), path("soft")));
  EXPECT_FALSE(same_file(path("g.txt"), path("other.txt")));
  EXPECT_FALSE(same_file(path("g.txt"), path("missing")));
}

} // namespace
} // namespace dd::output
