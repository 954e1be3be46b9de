export { MessageBoard, type MessageBoardProps } from './MessageBoard.tsx';
