//===- FusionOps.cpp - fusion.group: builder, syntax, verifiers -----------===//
//
// Syntax:
//   %r = fusion.group "name" <kind> (%arg = %operand, ... : type, ...)
//        -> result-types reason("why") [attributes {...}] { body }
//
//===----------------------------------------------------------------------===//

#include "tc/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::fusion;

#include "tc/Dialect/Fusion/IR/FusionEnums.cpp.inc"

#define GET_OP_CLASSES
#include "tc/Dialect/Fusion/IR/FusionOps.cpp.inc"

void GroupOp::build(OpBuilder &builder, OperationState &state,
                    TypeRange resultTypes, ValueRange inputs, StringRef name,
                    GroupKind kind, StringRef reason) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  state.getOrAddProperties<Properties>().name = builder.getStringAttr(name);
  state.getOrAddProperties<Properties>().kind =
      GroupKindAttr::get(builder.getContext(), kind);
  state.getOrAddProperties<Properties>().reason = builder.getStringAttr(reason);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

YieldOp GroupOp::getYield() {
  return cast<YieldOp>(getBodyBlock().getTerminator());
}

void GroupOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printString(getName());
  p << ' ' << stringifyGroupKind(getKind()) << " (";
  Block &body = getBodyBlock();
  llvm::interleaveComma(llvm::zip(body.getArguments(), getInputs()), p,
                        [&](auto pair) {
                          p.printOperand(std::get<0>(pair));
                          p << " = ";
                          p.printOperand(std::get<1>(pair));
                        });
  if (!getInputs().empty()) {
    p << " : ";
    llvm::interleaveComma(getInputs().getTypes(), p);
  }
  p << ")";
  p.printArrowTypeList(getResultTypes());
  p << " reason(";
  p.printString(getReason());
  p << ")";
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {"name", "kind", "reason"});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

ParseResult GroupOp::parse(OpAsmParser &parser, OperationState &state) {
  Builder &builder = parser.getBuilder();
  std::string name, reason, kindName;
  if (parser.parseString(&name))
    return failure();
  SMLoc kindLoc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&kindName))
    return failure();
  std::optional<GroupKind> kind = symbolizeGroupKind(kindName);
  if (!kind)
    return parser.emitError(kindLoc, "unknown fusion group kind '")
           << kindName << "'";

  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  if (parser.parseLParen())
    return failure();
  if (failed(parser.parseOptionalRParen())) {
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          OpAsmParser::Argument arg;
          OpAsmParser::UnresolvedOperand operand;
          if (parser.parseArgument(arg) || parser.parseEqual() ||
              parser.parseOperand(operand))
            return failure();
          args.push_back(arg);
          operands.push_back(operand);
          return success();
        }) ||
        parser.parseColonTypeList(types) || parser.parseRParen())
      return failure();
  }
  if (types.size() != args.size())
    return parser.emitError(parser.getCurrentLocation(), "expected ")
           << args.size() << " input types, got " << types.size();
  for (auto [arg, type] : llvm::zip(args, types))
    arg.type = type;
  if (parser.resolveOperands(operands, types, parser.getNameLoc(),
                             state.operands))
    return failure();

  SmallVector<Type> resultTypes;
  if (parser.parseOptionalArrowTypeList(resultTypes))
    return failure();
  state.addTypes(resultTypes);

  if (parser.parseKeyword("reason") || parser.parseLParen() ||
      parser.parseString(&reason) || parser.parseRParen() ||
      parser.parseOptionalAttrDictWithKeyword(state.attributes))
    return failure();

  Properties &props = state.getOrAddProperties<Properties>();
  props.name = builder.getStringAttr(name);
  props.kind = GroupKindAttr::get(builder.getContext(), *kind);
  props.reason = builder.getStringAttr(reason);

  Region *body = state.addRegion();
  if (parser.parseRegion(*body, args, /*enableNameShadowing=*/false))
    return failure();
  GroupOp::ensureTerminator(*body, builder, state.location);
  return success();
}

LogicalResult GroupOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty name");
  Block &body = getBodyBlock();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("has ")
           << getInputs().size() << " inputs but its body takes "
           << body.getNumArguments() << " arguments";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(body.getArgumentTypes(), getInputs())))
    if (std::get<0>(pair) != std::get<1>(pair).getType())
      return emitOpError("body argument #")
             << index << " has type " << std::get<0>(pair)
             << " but input #" << index << " has type "
             << std::get<1>(pair).getType();
  return success();
}

LogicalResult GroupOp::verifyRegions() {
  YieldOp yield = getYield();
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError("yields ")
           << yield.getValues().size() << " values but the group has "
           << getNumResults() << " results";
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(yield.getValues().getTypes(), getResultTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return yield.emitOpError("value #")
             << index << " has type " << std::get<0>(pair)
             << " but group result #" << index << " has type "
             << std::get<1>(pair);
  return success();
}
