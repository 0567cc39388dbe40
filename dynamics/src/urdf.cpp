// URDF loader: tinyxml reads the document (for line-numbered syntax errors,
// document order and the <loop_joint> extension), urdfdom parses the standard
// elements.
#include "dynamics/urdf.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <locale>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <tinyxml.h>

#include "did_you_mean.hpp"
#include "file_contents.hpp"
#include "format_number.hpp"
#include "decimal_number.hpp"
#include "urdf_capsules.hpp"
#include "urdf_composite.hpp"
#include "urdf_frames.hpp"
#include "urdfdom_parse.hpp"

namespace dynamics {
namespace {

namespace file_contents = graphsolve::file_contents;

using urdf_detail::Capsules;
using urdf_detail::from_urdf;
using urdf_detail::LinkPlacement;
using urdf_detail::Transform;
using urdf_detail::UrdfError;

Vector3 parse_vector(const char* text, const Vector3& fallback, const std::string& where, const UrdfError& fail) {
  if (!text) return fallback;
  std::istringstream in(text);
  in.imbue(std::locale::classic());  // not the program's locale: URDF numbers have decimal points
  Vector3 v;
  if (!(in >> v.x() >> v.y() >> v.z()) || !v.allFinite()) fail(where + ": expected three numbers, got '" + text + "'");
  std::string rest;
  if (in >> rest) fail(where + ": expected three numbers, got '" + text + "'");
  return v;
}

std::string attribute(const TiXmlElement* e, const char* name) {
  const char* v = e->Attribute(name);
  return v ? v : "";
}

// A box, sphere or cylinder with an edge, radius or length of exactly zero
// (a flat plate, a disc, a marker), or a capsule of radius zero: drawn as
// nothing and touching nothing. Negative sizes stay errors (Shape's checks).
bool zero_size(const urdf::Geometry& geometry, const Capsules& capsules) {
  if (capsules.contains(geometry)) return static_cast<const urdf::Cylinder&>(geometry).radius == 0.0;
  switch (geometry.type) {
    case urdf::Geometry::BOX: {
      const auto& d = static_cast<const urdf::Box&>(geometry).dim;
      return d.x == 0.0 || d.y == 0.0 || d.z == 0.0;
    }
    case urdf::Geometry::SPHERE: return static_cast<const urdf::Sphere&>(geometry).radius == 0.0;
    case urdf::Geometry::CYLINDER: {
      const auto& c = static_cast<const urdf::Cylinder&>(geometry);
      return c.radius == 0.0 || c.length == 0.0;
    }
    default: return false;
  }
}

// The shape of a URDF geometry in the body frame; false for meshes and
// zero-size shapes.
bool to_shape(const urdf::GeometrySharedPtr& geometry, const urdf::Pose& origin, const Transform& link_in_body,
              const Capsules& capsules, Shape& s) {
  if (!geometry || zero_size(*geometry, capsules)) return false;
  switch (geometry->type) {
    case urdf::Geometry::BOX: {
      const auto& b = static_cast<const urdf::Box&>(*geometry);
      s = Shape::box(Vector3(b.dim.x, b.dim.y, b.dim.z));
      break;
    }
    case urdf::Geometry::SPHERE: s = Shape::sphere(static_cast<const urdf::Sphere&>(*geometry).radius); break;
    case urdf::Geometry::CYLINDER: {
      const auto& c = static_cast<const urdf::Cylinder&>(*geometry);
      s = capsules.contains(*geometry) ? Shape::capsule(c.radius, c.length) : Shape::cylinder(c.radius, c.length);
      break;
    }
    default: return false;  // meshes are not kept
  }
  const Transform t = link_in_body * from_urdf(origin);
  s.position = t.position;
  s.orientation = t.rotation;
  return true;
}

void add_shape(const urdf::GeometrySharedPtr& geometry, const urdf::Pose& origin, const Transform& link_in_body,
               const Capsules& capsules, Body& body) {
  Shape s;
  if (to_shape(geometry, origin, link_in_body, capsules, s)) body.shapes.push_back(s);
}

std::string geometry_name(const urdf::Geometry& geometry, const Capsules& capsules) {
  if (capsules.contains(geometry)) return "capsule";
  switch (geometry.type) {
    case urdf::Geometry::BOX: return "box";
    case urdf::Geometry::SPHERE: return "sphere";
    case urdf::Geometry::CYLINDER: return "cylinder";
    case urdf::Geometry::MESH: return "mesh '" + static_cast<const urdf::Mesh&>(geometry).filename + "'";
    default: return "geometry";
  }
}

// mu of a <contact_coefficients> child of `e`, or `fallback`.
double contact_mu(const TiXmlElement* e, double fallback, const UrdfError& fail) {
  const TiXmlElement* c = e ? e->FirstChildElement("contact_coefficients") : nullptr;
  if (!c || !c->Attribute("mu")) return fallback;
  const std::string text = c->Attribute("mu");
  const double mu = graphsolve::decimal_number::parse_finite(text).value_or(-1.0);
  if (!(mu >= 0.0))
    fail("line " + std::to_string(c->Row()) + ": <contact_coefficients mu=\"" + text +
         "\">: mu must be a number >= 0");
  return mu;
}

// Ground contacts of a link's collision spheres, boxes, cylinders and capsules.
void add_collision_contacts(Model& model, int body, const urdf::Link& link, const Transform& link_in_body,
                            const TiXmlElement* link_element, const ContactOptions& defaults, const Capsules& capsules,
                            const UrdfError& fail, std::vector<std::string>& ignored) {
  const double link_mu = contact_mu(link_element, defaults.friction_coefficient, fail);
  const TiXmlElement* collision = link_element ? link_element->FirstChildElement("collision") : nullptr;
  for (const auto& c : link.collision_array) {
    ContactOptions options = defaults;
    options.friction_coefficient = contact_mu(collision, link_mu, fail);
    if (collision) collision = collision->NextSiblingElement("collision");
    Shape shape;
    const bool kept = c->geometry && to_shape(c->geometry, c->origin, link_in_body, capsules, shape);
    if (!kept) {
      if (c->geometry)
        ignored.push_back("link '" + link.name + "': <collision> " + geometry_name(*c->geometry, capsules) +
                          (zero_size(*c->geometry, capsules) ? " has a zero size and gets no contacts"
                                                             : " gets no contacts (only primitive shapes do)"));
      continue;
    }
    for (Contact& contact : shape_contacts(body, shape, options)) model.add_contact(std::move(contact));
  }
}

// The body anchored by a link with mass: the summed inertial of the links
// fused into it, and the shapes of every link placed on it (with mass or not),
// each with its frame in the body.
Body make_body(const std::string& anchor, const urdf_detail::CompositeInertial& inertial,
               const std::vector<std::pair<const urdf::Link*, Transform>>& carried, const Capsules& capsules,
               const UrdfError& fail) {
  Body body;
  body.name = anchor;
  body.mass = inertial.mass;
  body.inertia = inertial.inertia;
  for (const auto& [l, link_in_body] : carried) {
    try {
      for (const auto& v : l->visual_array) add_shape(v->geometry, v->origin, link_in_body, capsules, body);
      for (const auto& c : l->collision_array) add_shape(c->geometry, c->origin, link_in_body, capsules, body);
    } catch (const std::invalid_argument& e) {
      fail("link '" + l->name + "': bad geometry: " + e.what());
    }
  }
  return body;
}

// "link 'a' (line 3)", and the links fused into its body.
std::string body_origin(const std::string& anchor, int line, const std::vector<std::string>& fused) {
  std::string who = "link '" + anchor + "' (line " + std::to_string(line) + ")";
  if (fused.size() < 2) return who;
  who += " with";
  for (std::size_t i = 1; i < fused.size(); ++i) who += (i > 1 ? ", '" : " '") + fused[i] + "'";
  return who + " welded to it";
}

JointType joint_type(int urdf_type, const std::string& who, const UrdfError& fail) {
  switch (urdf_type) {
    case urdf::Joint::FIXED: return JointType::Fixed;
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS: return JointType::Revolute;
    case urdf::Joint::PRISMATIC: return JointType::Prismatic;
    case urdf::Joint::FLOATING: return JointType::Floating;
    case urdf::Joint::PLANAR: return JointType::PlanarAxis;
    default: fail(who + ": unsupported joint type");
  }
}

// The URDF spelling of a joint type without a range of its own.
const char* urdf_type_name(int urdf_type) {
  switch (urdf_type) {
    case urdf::Joint::CONTINUOUS: return "continuous";
    case urdf::Joint::FLOATING: return "floating";
    case urdf::Joint::PLANAR: return "planar";
    default: return "fixed";
  }
}

JointType loop_joint_type(const std::string& type, const std::string& who, const UrdfError& fail) {
  if (type == "continuous" || type == "revolute") return JointType::Revolute;
  if (type == "prismatic") return JointType::Prismatic;
  if (type == "fixed") return JointType::Fixed;
  if (type == "spherical") return JointType::Spherical;
  fail(who + ": type must be continuous, revolute, prismatic, fixed or spherical, got '" + type + "'");
}

// Why a loop joint's two links cannot move apart: `anchor` is the link that
// names the one body both ride on, or 'world'.
std::string same_body(const std::string& link1, const std::string& link2, const std::string& anchor) {
  const std::string tail = "; a loop joint must join links that can move relative to each other";
  if (link1 == link2) return "<link1> and <link2> are the same link '" + link1 + "'" + tail;
  const std::string both = "links '" + link1 + "' and '" + link2 + "'";
  if (anchor == "world") return both + " are both fixed in the world" + tail;
  return both + " are welded by fixed joints into one body '" + anchor + "'" + tail;
}

// urdfdom, and so ROS, knows 'world' only as a declared link; files written
// for simulators that take it implicitly miss the declaration. For any other
// unknown link the hint names the one likely meant, if one stands out.
std::string unknown_link_hint(const std::string& unknown_link, const std::vector<std::string>& links) {
  if (unknown_link == "world") return " (to attach to the world, declare it: <link name=\"world\"/>)";
  return detail::did_you_mean(unknown_link, links);
}

// Every root link but 'world' floats (see parse_urdf). urdfdom accepts one
// root only, so it is shown this copy of the document, in which the other
// roots hang from a 'world' link by floating joints that the model never reads.
std::string as_one_tree(TiXmlDocument& doc, const std::vector<std::string>& roots, bool has_world,
                        const std::vector<std::string>& joint_names) {
  TiXmlElement* robot = doc.RootElement();
  if (!has_world) {
    TiXmlElement world("link");
    world.SetAttribute("name", "world");
    robot->InsertEndChild(world);
  }
  for (const std::string& name : roots) {
    if (name == "world") continue;
    std::string joint_name = "floating root " + name;
    while (std::find(joint_names.begin(), joint_names.end(), joint_name) != joint_names.end()) joint_name += "'";
    TiXmlElement joint("joint"), parent("parent"), child("child");
    joint.SetAttribute("name", joint_name);
    joint.SetAttribute("type", "floating");
    parent.SetAttribute("link", "world");
    child.SetAttribute("link", name);
    joint.InsertEndChild(parent);
    joint.InsertEndChild(child);
    robot->InsertEndChild(joint);
  }
  TiXmlPrinter printer;
  doc.Accept(&printer);
  return printer.CStr();
}

}  // namespace

Model parse_urdf(const std::string& xml, const std::string& source, const UrdfOptions& options,
                 std::vector<std::string>* ignored_out) {
  const UrdfError fail(source);
  std::vector<std::string> ignored;
  // tinyxml reads up to the first NUL byte, and calls binary data, a
  // compressed file and a file without elements all "Error document empty".
  if (const std::string why = file_contents::not_text(xml, source, "URDF XML"); !why.empty()) fail(why);
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  if (doc.ErrorId() == TiXmlBase::TIXML_ERROR_DOCUMENT_EMPTY) {
    const std::size_t first = xml.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) fail(std::string(xml.empty() ? "empty" : "blank") + ", expected URDF XML");
    fail("no XML element, expected URDF XML (<robot ...>); it begins with '" +
         file_contents::printable(xml.substr(first, xml.find('\n', first) - first)) + "'");
  }
  if (doc.Error())
    fail("malformed XML at line " + std::to_string(doc.ErrorRow()) + ", column " + std::to_string(doc.ErrorCol()) +
         ": " + doc.ErrorDesc());
  const TiXmlElement* robot = doc.RootElement();
  if (!robot || std::string(robot->Value()) != "robot") fail("the root element must be <robot>");

  // Names in document order, and the references urdfdom would only log.
  std::vector<std::string> link_names, joint_names;
  std::map<std::string, int> line_of_link;
  std::map<std::string, const TiXmlElement*> link_element;
  for (const TiXmlElement* e = robot->FirstChildElement("link"); e; e = e->NextSiblingElement("link")) {
    const std::string name = attribute(e, "name");
    if (name.empty()) fail("line " + std::to_string(e->Row()) + ": <link> without a name");
    if (line_of_link.count(name)) fail("line " + std::to_string(e->Row()) + ": duplicate link '" + name + "'");
    line_of_link[name] = e->Row();
    link_element[name] = e;
    link_names.push_back(name);
  }
  std::map<std::string, std::string> parent_of, joint_to;  // child link -> parent link, -> its joint
  for (const TiXmlElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint")) {
    const std::string name = attribute(e, "name");
    const std::string where = "line " + std::to_string(e->Row()) + ": joint '" + name + "'";
    if (name.empty()) fail("line " + std::to_string(e->Row()) + ": <joint> without a name");
    std::string ends[2];
    for (int i = 0; i < 2; ++i) {
      const char* end = i == 0 ? "parent" : "child";
      const TiXmlElement* ref = e->FirstChildElement(end);
      ends[i] = ref ? attribute(ref, "link") : "";
      if (ends[i].empty()) fail(where + ": missing <" + end + " link=...>");
      if (!line_of_link.count(ends[i]))
        fail(where + ": unknown " + end + " link '" + ends[i] + "'" + unknown_link_hint(ends[i], link_names));
    }
    // The joints must form a tree; urdfdom would reject these too, but it
    // leaks the links it has wired together.
    if (ends[0] == ends[1]) fail(where + ": parent and child are the same link '" + ends[0] + "'");
    if (ends[1] == "world") fail(where + ": the world cannot be a child link");
    if (parent_of.count(ends[1]))
      fail(where + ": link '" + ends[1] + "' is already the child of joint '" + joint_to[ends[1]] +
           "' (close loops with <loop_joint>)");
    parent_of[ends[1]] = ends[0];
    joint_to[ends[1]] = name;
    joint_names.push_back(name);
  }
  // Each link has at most one parent, so a walk up from a link either reaches
  // a root or comes back to a link it passed: a cycle. Walks stop at links an
  // earlier walk took to a root, so every link is walked once (walking each
  // to its root took seconds for a chain of a few thousand links).
  std::set<std::string> reaches_root;
  for (const auto& entry : parent_of) {
    std::set<std::string> on_path;
    for (const std::string* link = &entry.first; !reaches_root.count(*link);) {
      if (!on_path.insert(*link).second)
        fail("joint '" + joint_to[*link] + "' closes a cycle of <joint> elements through link '" + *link +
             "' (close loops with <loop_joint>)");
      const auto up = parent_of.find(*link);
      if (up == parent_of.end()) break;  // a root
      link = &up->second;
    }
    reaches_root.insert(on_path.begin(), on_path.end());
  }

  std::vector<std::string> roots;
  for (const std::string& name : link_names)
    if (!parent_of.count(name)) roots.push_back(name);
  Capsules capsules;
  const bool renamed = capsules.hide_from_urdfdom(doc.RootElement(), fail);
  std::string one_tree = xml;
  if (roots.size() > 1) {
    one_tree = as_one_tree(doc, roots, line_of_link.count("world") > 0, joint_names);
  } else if (renamed) {
    TiXmlPrinter printer;
    doc.Accept(&printer);
    one_tree = printer.CStr();
  }

  std::string urdfdom_errors;
  const urdf::ModelInterfaceSharedPtr parsed = urdf_detail::parse_with_urdfdom(one_tree, urdfdom_errors);
  if (!parsed) fail("urdfdom rejected the robot description: " + urdfdom_errors);
  capsules.find(*parsed);

  // Each link with mass that is not fused into another becomes a body
  // (document order); the other links ride on a body or on the world.
  std::map<std::string, LinkPlacement> placed =
      urdf_detail::place_links(*parsed, {link_names, parent_of, joint_to},
                               {options.fuse_welded_links, options.fixed_base,
                                options.bound_mass > 0.0 && options.bound_inertia > 0.0},
                               fail, ignored);
  std::map<std::string, urdf_detail::CompositeInertial> inertials =
      urdf_detail::fuse_bodies(*parsed, link_names, placed, options.balance_inertia, fail, ignored);
  std::map<std::string, std::vector<std::pair<const urdf::Link*, Transform>>> carried;  // anchor -> links on it
  for (const std::string& name : link_names)
    carried[placed.at(name).anchor].emplace_back(parsed->getLink(name).get(), placed.at(name).link_in_body);
  Model model;
  std::map<std::string, int> body_of;  // link name -> body index (world: kWorld)
  std::map<std::string, Transform> link_in_body;
  for (const std::string& name : link_names) {
    if (name == "world" || placed.at(name).anchor != name) continue;
    urdf_detail::CompositeInertial& inertial = inertials[name];  // a massless link's body has none yet
    if (inertial.links.empty()) inertial.links.push_back(name);
    const std::string raised = urdf_detail::raise_to_bounds(inertial, options.bound_mass, options.bound_inertia);
    if (!raised.empty()) ignored.push_back("body '" + name + "': " + raised + " (bound_mass, bound_inertia)");
    try {
      body_of[name] = model.add_body(make_body(name, inertial, carried[name], capsules, fail));
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      if (what.rfind(source, 0) == 0) throw;
      std::string hint;
      if (what.find("positive definite") != std::string::npos)
        hint = options.fuse_welded_links
                   ? "; a link with mass but no rotational inertia (a point mass) must be welded by fixed joints to "
                     "links that give its body rotational inertia, or its inertia bounded below "
                     "(UrdfOptions::bound_inertia, CLI --bound-inertia)"
                   : "; a point mass needs UrdfOptions::fuse_welded_links to join the body it is welded to";
      fail(body_origin(name, line_of_link[name], inertial.links) + ": " + what + hint);
    }
  }
  if (model.num_bodies() == 0)
    fail("no link has mass apart from what is welded to 'world': there is nothing to simulate");
  for (const std::string& name : link_names) {
    const LinkPlacement& p = placed.at(name);
    body_of[name] = p.anchor == "world" ? kWorld : body_of.at(p.anchor);
    link_in_body[name] = p.link_in_body;
    const urdf::Link& link = *parsed->getLink(name);
    if (body_of[name] == kWorld) {
      for (const auto& c : link.collision_array)
        if (c->geometry)
          ignored.push_back("link '" + name + "': <collision> " + geometry_name(*c->geometry, capsules) +
                            " is fixed in the world and gets no contacts (only moving bodies touch the ground)");
      continue;
    }
    if (!options.collision_contacts) continue;
    try {
      add_collision_contacts(model, body_of[name], link, link_in_body[name], link_element[name], options.contacts,
                             capsules, fail, ignored);
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      if (what.rfind(source, 0) == 0) throw;
      fail("link '" + name + "': " + what);
    }
  }

  for (const std::string& name : joint_names) {
    const urdf::JointConstSharedPtr uj = parsed->getJoint(name);
    const std::string who = "joint '" + name + "'";
    // A weld inside one body: a massless link and the body it rides on.
    if (body_of.at(uj->parent_link_name) == body_of.at(uj->child_link_name) && uj->type == urdf::Joint::FIXED) continue;
    Joint j = Joint::make(joint_type(uj->type, who, fail), name, body_of.at(uj->parent_link_name),
                          body_of.at(uj->child_link_name));
    if (j.child == kWorld) fail(who + ": the world cannot be a child link");
    const Vector3 axis(uj->axis.x, uj->axis.y, uj->axis.z);
    if (j.num_coordinates() > 0 && j.freedom.translational < 3) {
      if (!axis.allFinite() || axis.norm() < 1e-12) fail(who + ": axis is zero");
      j.axis = axis;
    }
    const Transform parent = link_in_body[uj->parent_link_name] * from_urdf(uj->parent_to_joint_origin_transform);
    const Transform child = link_in_body[uj->child_link_name];
    j.parent_frame = Frame{parent.position, parent.rotation};
    j.child_frame = Frame{child.position, child.rotation};
    const bool limited = uj->type == urdf::Joint::REVOLUTE || uj->type == urdf::Joint::PRISMATIC;
    if (options.joint_limits && limited && uj->limits) {
      const double lo = uj->limits->lower, hi = uj->limits->upper;
      if (!(lo <= hi))
        fail(who + ": <limit> lower " + detail::format_number(lo) + " is not at or below upper " +
             detail::format_number(hi));
      if (lo == hi) {
        // A zero range has no interior for the interior-point method to start from.
        const std::string why = lo == 0.0 ? " (what a <limit> without them reads as)"
                                          : " (to hold the joint there, make it a fixed joint)";
        ignored.push_back(who + ": <limit> lower = upper = " + detail::format_number(lo) + why +
                          " is no range; the joint moves without limits");
      } else {
        j.lower = {lo};
        j.upper = {hi};
      }
    } else if (options.joint_limits && uj->limits && uj->limits->lower < uj->limits->upper && j.num_coordinates() > 0) {
      // URDF gives a range to revolute and prismatic joints only (continuous
      // ones turn without limits; a planar or floating joint has several
      // coordinates and one <limit>): said rather than dropped in silence.
      ignored.push_back(who + ": <limit> " + detail::format_number(uj->limits->lower) + " to " +
                        detail::format_number(uj->limits->upper) + " is not read on a " + urdf_type_name(uj->type) +
                        " joint; the joint moves without limits");
    }
    if (uj->dynamics && options.joint_damping && j.num_coordinates() > 0) {
      const double damping = uj->dynamics->damping;
      if (!(damping >= 0.0) || !std::isfinite(damping))
        fail(who + ": <dynamics damping> must be a number >= 0, got " + detail::format_number(damping));
      j.damping = damping;
    }
    if (uj->dynamics && options.joint_friction && j.num_coordinates() > 0) {
      const double friction = uj->dynamics->friction;
      if (!(friction >= 0.0) || !std::isfinite(friction))
        fail(who + ": <dynamics friction> must be a number >= 0, got " + detail::format_number(friction));
      j.friction = friction;
    }
    try {
      model.add_joint(j);
    } catch (const std::invalid_argument& e) {
      fail(who + ": " + e.what());
    }
  }

  // Root links not attached to the world float, or with `fixed_base` are held
  // at the world origin (those the world carries need no joint).
  for (const std::string& name : link_names) {
    if (name == "world" || parent_of.count(name) || body_of[name] == kWorld) continue;
    const char* kind = options.fixed_base ? "fixed" : "floating";
    if (model.find_joint(name) >= 0)
      fail("link '" + name + "' needs a " + kind + " joint to the world, but a joint has its name");
    Joint j = Joint::make(options.fixed_base ? JointType::Fixed : JointType::Floating, name, kWorld, body_of[name]);
    j.child_frame = Frame{link_in_body[name].position, link_in_body[name].rotation};
    model.add_joint(j);
  }

  for (const TiXmlElement* e = robot->FirstChildElement("loop_joint"); e; e = e->NextSiblingElement("loop_joint")) {
    const std::string name = attribute(e, "name");
    const std::string who = "line " + std::to_string(e->Row()) + ": loop_joint '" + name + "'";
    if (name.empty()) fail("line " + std::to_string(e->Row()) + ": <loop_joint> without a name");
    Joint j = Joint::make(loop_joint_type(attribute(e, "type"), who, fail), name, kWorld, -1);
    Frame frames[2];
    int bodies[2];
    std::string links[2];
    const char* tags[2] = {"link1", "link2"};
    for (int k = 0; k < 2; ++k) {
      const TiXmlElement* side = e->FirstChildElement(tags[k]);
      if (!side) fail(who + ": missing <" + tags[k] + " link=...>");
      const std::string& link = links[k] = attribute(side, "link");
      if (!body_of.count(link))
        fail(who + ": unknown link '" + link + "' in <" + tags[k] + ">" + unknown_link_hint(link, link_names));
      bodies[k] = body_of[link];
      const Transform local{parse_vector(side->Attribute("xyz"), Vector3::Zero(), who + " <" + tags[k] + " xyz>", fail),
                            rotation_from_rpy(parse_vector(side->Attribute("rpy"), Vector3::Zero(),
                                                           who + " <" + tags[k] + " rpy>", fail))};
      const Transform t = link_in_body[link] * local;
      frames[k] = Frame{t.position, t.rotation};
    }
    if (bodies[0] == bodies[1]) fail(who + ": " + same_body(links[0], links[1], placed.at(links[0]).anchor));
    if (bodies[1] == kWorld) {  // keep a body as the child
      std::swap(bodies[0], bodies[1]);
      std::swap(frames[0], frames[1]);
    }
    j.parent = bodies[0];
    j.child = bodies[1];
    j.parent_frame = frames[0];
    j.child_frame = frames[1];
    if (const TiXmlElement* axis = e->FirstChildElement("axis"))
      j.axis = parse_vector(axis->Attribute("xyz"), Vector3::UnitX(), who + " <axis xyz>", fail);
    else
      j.axis = Vector3::UnitX();  // URDF's default axis
    try {
      model.add_joint(j);
    } catch (const std::invalid_argument& ex) {
      fail(who + ": " + ex.what());
    }
  }
  // <mimic>: a coupling named after its follower, once every joint exists.
  for (const std::string& name : joint_names) {
    const urdf::JointConstSharedPtr uj = parsed->getJoint(name);
    if (!uj->mimic) continue;
    const std::string who = "joint '" + name + "' <mimic joint=\"" + uj->mimic->joint_name + "\">";
    const int leader = model.find_joint(uj->mimic->joint_name), follower = model.find_joint(name);
    if (leader < 0) {
      const std::string why = parsed->getJoint(uj->mimic->joint_name)
                                  ? "a fixed joint inside one body cannot lead"
                                  : "no joint has that name" + detail::did_you_mean(uj->mimic->joint_name, joint_names);
      fail(who + ": " + why);
    }
    if (follower < 0) fail(who + ": a fixed joint inside one body cannot follow");
    try {
      model.add_coupling(JointCoupling{name, leader, follower, uj->mimic->multiplier, uj->mimic->offset});
    } catch (const std::invalid_argument& e) {
      fail(who + ": " + e.what());
    }
  }
  if (ignored_out) *ignored_out = std::move(ignored);
  return model;
}

Model load_urdf(const std::string& path, const UrdfOptions& options, std::vector<std::string>* ignored) {
  // A directory opens as a stream that reads nothing: named here, not "empty".
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw std::invalid_argument(path + ": is a directory, not a URDF file");
  errno = 0;
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open the file: " + std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::invalid_argument(path + ": cannot read the file: " + std::strerror(errno));
  return parse_urdf(text.str(), path, options, ignored);
}

}  // namespace dynamics
