#include "urdf_capsules.hpp"

#include "decimal_number.hpp"

namespace dynamics::urdf_detail {
namespace {

// A size attribute: a finite number >= 0.
void check_size(const TiXmlElement* capsule, const char* name, const std::string& who, const UrdfError& fail) {
  const char* text = capsule->Attribute(name);
  if (!text) fail(who + ": <capsule> needs a " + name);
  if (!(graphsolve::decimal_number::parse_finite(text).value_or(-1.0) >= 0.0))
    fail(who + ": <capsule> " + name + " must be a number >= 0, got '" + text + "'");
}

}  // namespace

bool Capsules::hide_from_urdfdom(TiXmlElement* robot, const UrdfError& fail) {
  for (TiXmlElement* link = robot->FirstChildElement("link"); link; link = link->NextSiblingElement("link")) {
    const char* name = link->Attribute("name");
    for (const bool collision : {false, true}) {
      const char* tag = collision ? "collision" : "visual";
      int index = 0;
      for (TiXmlElement* e = link->FirstChildElement(tag); e; e = e->NextSiblingElement(tag), ++index) {
        TiXmlElement* geometry = e->FirstChildElement("geometry");
        TiXmlElement* shape = geometry ? geometry->FirstChildElement() : nullptr;
        if (!shape || std::string(shape->Value()) != "capsule") continue;
        const std::string who = "link '" + std::string(name ? name : "") + "' (line " + std::to_string(shape->Row()) + ")";
        check_size(shape, "radius", who, fail);
        check_size(shape, "length", who, fail);
        shape->SetValue("cylinder");
        hidden_.emplace_back(name ? name : "", collision, index);
      }
    }
  }
  return !hidden_.empty();
}

void Capsules::find(const urdf::ModelInterface& parsed) {
  for (const auto& [name, collision, index] : hidden_) {
    const urdf::LinkConstSharedPtr link = parsed.getLink(name);
    if (!link) continue;
    if (collision && index < static_cast<int>(link->collision_array.size()))
      found_.insert(link->collision_array[index]->geometry.get());
    if (!collision && index < static_cast<int>(link->visual_array.size()))
      found_.insert(link->visual_array[index]->geometry.get());
  }
}

}  // namespace dynamics::urdf_detail
