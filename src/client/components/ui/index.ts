export { Badge, type BadgeProps, type BadgeVariant } from "./badge";
export { Button, type ButtonProps, type ButtonSize, type ButtonVariant } from "./button";
export { Card, CardContent, CardHeader, CardTitle } from "./card";
export { Dialog, DialogClose, type DialogProps, DialogRoot, DialogTrigger } from "./dialog";
export { Field, FieldError, type FieldProps, Input, type InputProps, inputClassName, Label, TextField } from "./field";
export { Spinner } from "./spinner";
