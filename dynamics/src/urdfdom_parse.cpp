#include "urdfdom_parse.hpp"

#include <mutex>

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

namespace dynamics::urdf_detail {
namespace {

class ErrorCollector : public console_bridge::OutputHandler {
 public:
  explicit ErrorCollector(console_bridge::OutputHandler* next) : next_(next) {}
  void log(const std::string& text, console_bridge::LogLevel level, const char* file, int line) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) {
      errors_ += (errors_.empty() ? "" : "; ") + text;
    } else if (next_) {
      next_->log(text, level, file, line);
    }
  }
  const std::string& errors() const { return errors_; }

 private:
  console_bridge::OutputHandler* next_;
  std::string errors_;
};

// Installs the collector for its lifetime, with errors let through the level
// filter. console_bridge keeps the current handler and the one before it (for
// restorePreviousOutputHandler); both are put back as they were, so that the
// collector never lingers in either slot.
class Capture {
 public:
  explicit Capture(ErrorCollector& collector) : level_(console_bridge::getLogLevel()) {
    current_ = console_bridge::getOutputHandler();
    console_bridge::restorePreviousOutputHandler();  // swaps the two slots: read the earlier one
    earlier_ = console_bridge::getOutputHandler();
    console_bridge::restorePreviousOutputHandler();
    console_bridge::useOutputHandler(&collector);
    if (level_ > console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_ERROR);
  }
  ~Capture() {
    console_bridge::setLogLevel(level_);
    console_bridge::useOutputHandler(earlier_);  // the earlier slot now holds the collector
    console_bridge::useOutputHandler(current_);  // and now `earlier_` again
  }
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;

 private:
  console_bridge::OutputHandler* current_ = nullptr;
  console_bridge::OutputHandler* earlier_ = nullptr;
  console_bridge::LogLevel level_;
};

std::mutex parse_mutex;

}  // namespace

urdf::ModelInterfaceSharedPtr parse_with_urdfdom(const std::string& xml, std::string& errors) {
  const std::lock_guard<std::mutex> lock(parse_mutex);
  ErrorCollector collector(console_bridge::getOutputHandler());
  urdf::ModelInterfaceSharedPtr model;
  {
    const Capture capture(collector);
    model = urdf::parseURDF(xml);
  }
  errors = collector.errors();
  if (!errors.empty()) model.reset();
  if (!model && errors.empty()) errors = "it gave no reason";
  return model;
}

}  // namespace dynamics::urdf_detail
